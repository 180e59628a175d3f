#!/usr/bin/env bash
# What one compound of the workload driver's `degree k=1` row costs one tcnfs server (issue 16, branch h-k1): starts
# SERVER_JAR on a fresh export under $DIR (default /mnt/tcnfs-xfs/bench; export options $BENCH_DATA_OPTIONS, e.g.
# rw,no_root_squash,async), warms it with one driver run, then runs the driver again with `strace -f -c` of the
# server attached (every system call, counted) and the metrics endpoint read before and after. Prints the system
# calls per compound, the server's time per operation (tcnfs_op_seconds) and per compound, the flush counters, the
# driver's rate, the server's CPU and context switches per compound by thread kind, and the load average.
#
# Usage: scripts/bench-k1.sh SERVER_JAR OUT_DIR [FILES [SIZE]]   (default 1000 files of 1K)
#   BENCH_DATA_OPTIONS=rw,no_root_squash,async scripts/bench-k1.sh server/target/tcnfs-server.jar target/k1-new
# NO_STRACE=1 skips strace (for timings); JFR=1 records the measured run with JFR (OUT/k1.jfr); DRIVER_JAR overrides the driver jar; SERVER_JAVA_OPTS adds JVM options (e.g. -XX:StartFlightRecording=...).
set -euo pipefail
JAR=$1; OUT=$2; FILES=${3:-1000}; SIZE=${4:-1K}
DIR=${DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
SERVER_JAR=$JAR
BENCH_JAR=${DRIVER_JAR:-$BENCH_JAR}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
bench_workdir k1
# shellcheck disable=SC2086 # SERVER_JAVA_OPTS holds several options
bench_start_tcnfs "$WORK" "$OUT/server.log" ${SERVER_JAVA_OPTS:-} -Xmx512m -- --max-ops 8192 --max-request 17MiB
drive() { # out
  "$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT/" \
    --baseline tcnfs --reference tcnfs --out "$1" --workloads degree --degrees 1 --degree-sizes "$SIZE" \
    --degree-files "$FILES" ${WARM_OPTS:-} >"$1.txt" 2>&1
}
metrics() { curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics"; }
drive "$OUT/warm"
metrics >"$OUT/metrics-before.txt"
cpu() { bench_cpu_ticks "$TCNFS_PID"; }
threads() { # per thread: name, CPU ticks, voluntary and involuntary context switches
  for t in /proc/$TCNFS_PID/task/*; do
    echo "$(cat $t/comm 2>/dev/null | tr ' ' _) $(bench_cpu_ticks "$TCNFS_PID/task/${t##*/}" 2>/dev/null)" \
      "$(awk '/^voluntary_ctxt/ {v=$2} /^nonvoluntary_ctxt/ {n=$2} END {print v + 0, n + 0}' $t/status 2>/dev/null)"
  done
}
threads >"$OUT/threads-before.txt"
CPU0=$(cpu)
[ "${JFR:-0}" = 1 ] && jcmd "$TCNFS_PID" JFR.start name=k1 settings=profile >/dev/null
if [ "${NO_STRACE:-0}" != 1 ]; then
  strace -q -f ${STRACE_OPTS:--c} -o "$OUT/strace.txt" -p "$TCNFS_PID" &
  ST=$!
  sleep 1
fi
WARM_OPTS="--warmup-files 0" drive "$OUT/run"
[ "${NO_STRACE:-0}" = 1 ] || { kill -INT $ST; wait $ST || true; }
CPU1=$(cpu)
threads >"$OUT/threads-after.txt"
metrics >"$OUT/metrics-after.txt"
echo "$CPU0 $CPU1 $(getconf CLK_TCK)" >"$OUT/cpu.txt"
[ "${JFR:-0}" = 1 ] && jcmd "$TCNFS_PID" JFR.dump name=k1 filename="$OUT/k1.jfr" >/dev/null
echo "load: $(uptime)"
python3 - "$OUT" <<'PY'
import re, sys
out = sys.argv[1]
def read(name):
    m = {}
    for line in open(f"{out}/{name}"):
        if line.startswith("#"): continue
        mm = re.match(r'^(\S+?)(\{[^}]*\})?\s+(\S+)$', line.strip())
        if mm: m[(mm.group(1), mm.group(2) or "")] = float(mm.group(3))
    return m
a, b = read("metrics-before.txt"), read("metrics-after.txt")
d = {k: b[k] - a.get(k, 0) for k in b}
comp = sum(v for (n, l), v in d.items() if n == "tcnfs_compounds_total")
print(f"compounds: {comp:.0f}")
ops = {}
for (n, l), v in d.items():
    if n in ("tcnfs_op_seconds_sum", "tcnfs_op_seconds_count") and v:
        op = re.search(r'op="([^"]+)"', l).group(1)
        ops.setdefault(op, [0, 0])[0 if n.endswith("sum") else 1] += v
for op, (s, c) in sorted(ops.items(), key=lambda x: -x[1][0]):
    print(f"  op {op:14s} {c:8.0f} x {1e6 * s / c:9.1f} us")
s = sum(v for (n, l), v in d.items() if n == "tcnfs_compound_seconds_sum")
c = sum(v for (n, l), v in d.items() if n == "tcnfs_compound_seconds_count")
if c: print(f"  compound       {c:8.0f} x {1e6 * s / c:9.1f} us")
for (n, l), v in sorted(d.items()):
    if v and re.match(r"tcnfs_(fsync|lmdb|shared_fsync|handle|resolution|pending|directory_syncs|symlink|row_flushes|rpc_inline)", n) and not n.endswith("_bucket"):
        print(f"  {n}{l} {v:.0f}")
try:
    import csv
    for r in csv.DictReader(open(f"{out}/run/results.csv")):
        print("driver:", r["workload"], r["parameter"], r["target"], r["ops/s"] if "ops/s" in r else r)
except Exception as e:
    print("driver results:", e)
try:
    c0, c1, hz = map(int, open(f"{out}/cpu.txt").read().split())
    print(f"server CPU: {(c1 - c0) / hz:.2f} s, {1e6 * (c1 - c0) / hz / comp:.0f} us per compound")
    import collections
    def kinds(name, column):
        t = collections.Counter()
        for line in open(f"{out}/{name}"):
            f = line.split()
            if len(f) >= 2:
                k = f[0]
                k = "compiler" if k.startswith(("C1_", "C2_")) else "gc" if k.startswith(("GC_", "G1_")) else k.rstrip("0123456789-")
                t[k] += int(f[column]) if len(f) > column else 0
        return t
    t0, t1 = kinds("threads-before.txt", 1), kinds("threads-after.txt", 1)
    for k, v in sorted(((k, t1[k] - t0.get(k, 0)) for k in t1), key=lambda x: -x[1])[:8]:
        if v > 0:
            print(f"  threads {k:24s} {v / hz:6.2f} s, {1e6 * v / hz / comp:5.0f} us per compound")
    for column, what in ((2, "voluntary"), (3, "involuntary")):
        s0, s1 = kinds("threads-before.txt", column), kinds("threads-after.txt", column)
        per = {k: (s1[k] - s0.get(k, 0)) / comp for k in s1 if s1[k] - s0.get(k, 0) > 0}
        print(f"{what} context switches per compound: {sum(per.values()):.2f} ("
              + ", ".join(f"{k} {v:.2f}" for k, v in sorted(per.items(), key=lambda x: -x[1])[:5]) + ")")
except Exception as e:
    print("cpu:", e)
if comp:
    try:
        print("syscalls per compound:")
        for line in open(f"{out}/strace.txt"):
            f = line.split()
            if len(f) >= 5 and f[3].isdigit():
                print(f"  {f[-1]:18s} {int(f[3]) / comp:7.2f}")
    except FileNotFoundError:
        pass
PY
