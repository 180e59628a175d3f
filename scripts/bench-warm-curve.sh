#!/usr/bin/env bash
# How fast a fresh tcnfs server reaches its steady state on the workload driver's `degree k=1` row, against NFS-Ganesha
# (issue 16, seventeenth round): starts one tcnfs server per JVM option set given (the same SERVER_JAR; each set is
# added after the README's JIT options, bench_jit_options) and NFS-Ganesha, then ROUNDS times (default 12), one target
# after another, runs the row once with FILES files (default 1000) of SIZE (default 1K) and no warm-up. Prints per
# round and target the driver's rate, the server's CPU ticks in the round (getconf CLK_TCK a second) and those of its
# C2 compiler threads: the rounds after which C2 stays near zero are the warm server.
#
# Usage: scripts/bench-warm-curve.sh OUT_DIR [JVM_OPTIONS]...   ("" = the README's options alone)
#   e.g. scripts/bench-warm-curve.sh target/curve "" "-XX:CompileThresholdScaling=0.2"
# Results: OUT_DIR/curve.txt (the table), OUT_DIR/targets.txt (which target had which options), the driver's output
# per round. DIR (default /mnt/tcnfs-xfs/bench) is where the servers' data go; DRIVER_JAR overrides the driver jar.
set -euo pipefail
OUT=$1; shift
[ $# -gt 0 ] || set -- ""
ROUNDS=${ROUNDS:-12}; FILES=${FILES:-1000}; SIZE=${SIZE:-1K}
DIR=${DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
BENCH_JAR=${DRIVER_JAR:-$BENCH_JAR}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
: >"$OUT/curve.txt"; : >"$OUT/targets.txt"
bench_workdir curve
NAMES=(); PIDS_OF=(); URLS=()
i=0
for opts in "$@"; do
  i=$((i + 1)); mkdir -p "$WORK/t$i"
  # shellcheck disable=SC2086 # several options, split on spaces
  bench_start_tcnfs "$WORK/t$i" "$OUT/server-t$i.log" $opts -Xmx512m -- --max-ops 8192 --max-request 17MiB
  NAMES+=("t$i"); PIDS_OF+=("$TCNFS_PID"); URLS+=("nfs://127.0.0.1:$TCNFS_PORT/")
  echo "t$i = $(bench_jit_options) $opts" | tee -a "$OUT/targets.txt"
done
bench_start_ganesha "$WORK" "$OUT/ganesha.log"
NAMES+=(ganesha); PIDS_OF+=("$GANESHA_PID"); URLS+=("nfs://127.0.0.1:$GANESHA_PORT/export")
c2_ticks() { # PID: CPU ticks of the process's C2 compiler threads
  local pid=$1 sum=0 task
  for task in /proc/"$pid"/task/*; do
    grep -q '^C2 ' "$task/comm" 2>/dev/null && sum=$((sum + $(bench_cpu_ticks "$pid/task/${task##*/}")))
  done
  echo "$sum"
}
for r in $(seq 1 "$ROUNDS"); do
  line="round $r"
  for k in "${!NAMES[@]}"; do
    n=${NAMES[$k]}; pid=${PIDS_OF[$k]}
    cpu0=$(bench_cpu_ticks "$pid"); c20=$(c2_ticks "$pid")
    "$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress --target "x=${URLS[$k]}" --baseline x \
      --reference x --out "$OUT/$n-$r" --workloads degree --degrees 1 --degree-sizes "$SIZE" --degree-files "$FILES" \
      --warmup-files 0 >"$OUT/$n-$r.txt" 2>&1 || echo "driver failed: $OUT/$n-$r.txt" >&2
    cpu1=$(bench_cpu_ticks "$pid"); c21=$(c2_ticks "$pid")
    rate=$(bench_driver_rate "$OUT/$n-$r.txt")
    line="$line | $n ${rate:-?}/s cpu $((cpu1 - cpu0)) c2 $((c21 - c20))"
  done
  echo "$line" | tee -a "$OUT/curve.txt"
done
