#!/usr/bin/env bash
# Where one client's short compounds spend their wall time (issue 16, branch h-k1): starts each tcnfs server jar given
# and NFS-Ganesha on fresh directories under $DIR (default /mnt/tcnfs-xfs/bench), warms each with two untimed driver
# runs of one row, then ROUNDS times (default 2), one target after another (interleaved), runs the row once with
# `strace -f -tt -T` of that server attached and once without (its rate untraced), and splits each traced run's
# compounds with scripts/strace-timeline.py (hand-off to the worker, CPU before the first system call, the operations'
# calls, the flushes, the tail up to the reply, the client's turn).
#
# Usage: scripts/k1-timeline.sh OUT_DIR JAR... [-- Workloads options]
#   default row: --workloads degree --degrees 1 --degree-sizes 1K --degree-files 300
#   e.g. scripts/k1-timeline.sh target/k1-tl /work/wt/base13/server/target/tcnfs-server.jar \
#        server/target/tcnfs-server.jar -- --workloads degree --degrees 1 --degree-sizes 128K --degree-files 300
# Results: OUT_DIR/<target>-<round>.strace, .txt (the driver's), timeline-<target>-<round>.txt, and a summary on
# standard output. NO_GANESHA=1 leaves NFS-Ganesha out. DRIVER_JAR overrides the driver jar (default: jmh's, under
# target$TCNFS_BUILD_SUFFIX).
set -euo pipefail
OUT=$1; shift
JARS=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do JARS+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
ROW=("$@")
[ ${#ROW[@]} -gt 0 ] || ROW=(--workloads degree --degrees 1 --degree-sizes 1K --degree-files 300)
DIR=${DIR:-/mnt/tcnfs-xfs/bench}
ROUNDS=${ROUNDS:-2}
. "$(dirname "$0")/bench-lib.sh"
BENCH_JAR=${DRIVER_JAR:-$BENCH_JAR}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
bench_workdir k1tl
NAMES=(); PIDS_OF=(); URLS=()
i=0
for jar in "${JARS[@]}"; do
  i=$((i + 1))
  SERVER_JAR=$jar
  mkdir -p "$WORK/t$i"
  bench_start_tcnfs "$WORK/t$i" "$OUT/server-t$i.log" -Xmx512m -- --max-ops 8192 --max-request 17MiB
  NAMES+=("t$i"); PIDS_OF+=("$TCNFS_PID"); URLS+=("nfs://127.0.0.1:$TCNFS_PORT/")
  echo "t$i = $jar" | tee -a "$OUT/targets.txt"
done
if [ "${NO_GANESHA:-0}" != 1 ]; then
  bench_start_ganesha "$WORK" "$OUT/ganesha.log"
  NAMES+=(ganesha); PIDS_OF+=("$GANESHA_PID"); URLS+=("nfs://127.0.0.1:$GANESHA_PORT/export")
fi
drive() { # target-url out [extra options]
  local url=$1 out=$2; shift 2
  "$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "x=$url" --baseline x \
    --reference x --out "$out" "${ROW[@]}" "$@" >"$out.txt" 2>&1 || echo "driver failed: $out.txt" >&2
}
rate() { bench_driver_rate "$1.txt"; }
for k in "${!NAMES[@]}"; do
  drive "${URLS[$k]}" "$OUT/warm1-${NAMES[$k]}"; drive "${URLS[$k]}" "$OUT/warm2-${NAMES[$k]}"
done
for r in $(seq 1 "$ROUNDS"); do
  for k in "${!NAMES[@]}"; do
    n=${NAMES[$k]}
    strace -q -f -tt -T -o "$OUT/$n-$r.strace" -p "${PIDS_OF[$k]}" & ST=$!
    sleep 1
    drive "${URLS[$k]}" "$OUT/$n-$r-traced" --warmup-files 0
    kill -INT $ST; wait $ST || true
    drive "${URLS[$k]}" "$OUT/$n-$r" --warmup-files 0
    python3 "$BENCH_ROOT/scripts/strace-timeline.py" "$OUT/$n-$r.strace" >"$OUT/timeline-$n-$r.txt" || true
    echo "== $n round $r: $(rate "$OUT/$n-$r") ops/s untraced, $(rate "$OUT/$n-$r-traced") traced; load $(cut -d' ' -f1-3 /proc/loadavg)"
    cat "$OUT/timeline-$n-$r.txt"
  done
done
