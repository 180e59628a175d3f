#!/usr/bin/env bash
# Server CPU and system calls per written file (issue 16, 8 clients writing): starts one server alone on a fresh
# directory under $BENCH_DIR (default /mnt/tcnfs-xfs/bench), warms it up with one untimed driver run of the same
# workload (WARM_RUNS of them), then measures one more run: the server process's CPU seconds (utime + stime of /proc/PID/stat, all
# threads), the files the driver wrote, and with STRACE=1 the server's system calls (`strace -f -c`, which slows
# the server: take CPU and calls from separate runs). Load-independent measures for A/B comparisons of builds
# and against NFS-Ganesha on a shared machine.
#
# Usage: scripts/bench-cpu-per-file.sh TARGET OUT_DIR [Workloads options...]
#   TARGET: a tcnfs server jar, or "ganesha" (the Debian package, VFS FSAL, as in bench-ab.sh)
#   e.g. scripts/bench-cpu-per-file.sh server/target/tcnfs-server.jar target/cpu-new --workloads writefiles \
#        --sizes 4K --clients 8 --files 2000
# TCNFS_ASYNC=1 serves the tcnfs export async (rw,no_root_squash,async); TCNFS_TXN=1 runs the driver's compounds as
# transactions (the target URL's ?txn). SERVER_JAVA_OPTS adds JVM options (e.g.
# -XX:StartFlightRecording=filename=x.jfr,settings=profile). STRACE=1 counts system calls (STRACE_CALLS, default
# fsync,fdatasync,pwrite64,write,openat,statx,futex,...: see below). Prints one line per measured run:
#   target=... files=N seconds=S cpu_s=C cpu_ms_per_file=... load="..."
# and with a tcnfs target the relevant metrics (LMDB commits, fsyncs, pool hand-offs) before and after.
set -euo pipefail
TARGET=$1; OUT=$2; shift 2
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
bench_workdir cpu
if [ "$TARGET" = ganesha ]; then
  bench_start_ganesha "$WORK" "$OUT/ganesha.log"
  PID=$GANESHA_PID
  URL="nfs://127.0.0.1:$GANESHA_PORT/export"
  NAME=ganesha
else
  SERVER_JAR=$TARGET
  [ "${TCNFS_ASYNC:-0}" = 1 ] && BENCH_DATA_OPTIONS=rw,no_root_squash,async
  # shellcheck disable=SC2086 # SERVER_JAVA_OPTS holds several options
  bench_start_tcnfs "$WORK" "$OUT/server.log" ${SERVER_JAVA_OPTS:-} -Xmx512m -- --max-ops 8192 --max-request 17MiB
  PID=$TCNFS_PID
  URL="nfs://127.0.0.1:$TCNFS_PORT/"
  [ "${TCNFS_TXN:-0}" = 1 ] && URL="$URL?txn"
  NAME=tcnfs
fi
cpu_ticks() { bench_cpu_ticks "$PID"; }
# per thread kind (digits of the name dropped): utime and stime ticks, one "name utime stime" line each
thread_ticks() {
  for t in /proc/"$PID"/task/*; do
    [ -r "$t/stat" ] || continue
    # the name is in parentheses and may hold spaces
    sed -E 's/^[0-9]+ \((.*)\) (.*)$/\1\t\2/' "$t/stat" 2>/dev/null | tr ' ' '_' | sed 's/\t/ /' \
      | awk '{ n = $1; gsub(/[0-9]+/, "N", n); split($2, f, "_"); print n, f[12], f[13] }'
  done | awk '{ u[$1] += $2; s[$1] += $3 } END { for (k in u) print k, u[k], s[k] }' | sort
}
metrics() {
  [ -n "${TCNFS_MPORT:-}" ] || return 0
  curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" \
    | grep -E "^tcnfs_(compounds_total|fsyncs_total|fsync_pool|shared_fsync|lmdb|handle)" || true
}
# untimed: JIT and caches warm, the same work WARM_RUNS times (default 1)
for ((w = 1; w <= ${WARM_RUNS:-1}; w++)); do
  "$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "$NAME=$URL" \
    --baseline "$NAME" --reference "$NAME" --warmup-rounds 1 --out "$OUT/warm-$w" "$@" >"$OUT/warm-$w.txt" 2>&1
done
metrics >"$OUT/metrics-before.txt"
ST=
if [ "${STRACE:-0}" = 1 ]; then
  strace -q -f -c -e trace="${STRACE_CALLS:-fsync,fdatasync,pwrite64,write,writev,read,readv,openat,openat2,close,statx,newfstatat,fstat,lstat,futex,epoll_wait,sendmsg,recvfrom,renameat2,unlinkat,ioctl,mmap,munmap,madvise}" \
    -o "$OUT/strace.txt" -p "$PID" &
  ST=$!
  sleep 1
fi
thread_ticks >"$OUT/threads-before.txt"
[ -f "$OUT/server.log" ] && wc -l <"$OUT/server.log" >"$OUT/server-log-lines-before.txt"
T0=$(cpu_ticks); S0=$(date +%s.%N)
"$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "$NAME=$URL" \
  --baseline "$NAME" --reference "$NAME" --warmup-files 0 --out "$OUT/run" "$@" >"$OUT/run.txt" 2>&1
T1=$(cpu_ticks); S1=$(date +%s.%N)
thread_ticks >"$OUT/threads-after.txt"
if [ -n "$ST" ]; then kill -INT "$ST"; wait "$ST" || true; fi
metrics >"$OUT/metrics-after.txt"
HZ=$(getconf CLK_TCK)
FILES=$(awk -F, 'NR > 1 && $3 == "'"$NAME"'" { s += $4 } END { print s + 0 }' "$OUT/run/results.csv")
python3 - "$NAME" "$FILES" "$S0" "$S1" "$T0" "$T1" "$HZ" "$(uptime | sed 's/.*load average: //')" <<'PY' | tee "$OUT/cpu.txt"
import sys
name, files, s0, s1, t0, t1, hz, load = sys.argv[1:]
files = int(files); cpu = (int(t1) - int(t0)) / int(hz)
print(f"target={name} files={files} seconds={float(s1) - float(s0):.2f} cpu_s={cpu:.2f} "
      f"cpu_ms_per_file={1000 * cpu / max(files, 1):.3f} load=\"{load}\"")
PY
grep -h "$NAME" "$OUT/run/results.csv" || true
echo "CPU ms per file by thread kind (user + system):"
join -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 "$OUT/threads-before.txt" "$OUT/threads-after.txt" \
  | awk -v hz="$(getconf CLK_TCK)" -v files="$FILES" '{ u = $4 - $2; s = $5 - $3; if (u + s > 0)
      printf "  %-32s %7.3f + %7.3f\n", $1, 1000 * u / hz / files, 1000 * s / hz / files }' | sort -k2 -nr
if [ -n "$ST" ]; then cat "$OUT/strace.txt"; fi
if [ -s "$OUT/metrics-after.txt" ]; then
  python3 - "$OUT/metrics-before.txt" "$OUT/metrics-after.txt" "$FILES" <<'PY'
import sys
def read(p):
    d = {}
    for line in open(p):
        k, _, v = line.rpartition(' ')
        try: d[k] = float(v)
        except ValueError: pass
    return d
a, b, files = read(sys.argv[1]), read(sys.argv[2]), max(int(sys.argv[3]), 1)
for k in sorted(b):
    delta = b[k] - a.get(k, 0)
    if delta:
        print(f"{k} +{delta:g} ({delta / files:.3f} per file)")
PY
fi
