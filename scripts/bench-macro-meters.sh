#!/usr/bin/env bash
# The server's handle-table meters and CPU ticks over one run of the driver's macro workload (untar, cp -R, ls -lR,
# rm -rf) against one tcnfs server alone (issue 16, docs/benchmarks.md "a transaction's handle-table reads"): starts
# SERVER_JAR as scripts/bench-lib.sh does, runs the macro workload once to warm up, then once more with the metrics
# endpoint scraped before and after, and prints the differences (snapshots, table reads, cached reads, compounds).
# usage: scripts/bench-macro-meters.sh SERVER_JAR OUT_DIR [--txn] [Workloads options...]
set -euo pipefail
JAR=$1; OUT=$2; shift 2
QUERY=""
if [ "${1:-}" = "--txn" ]; then QUERY="?txn"; shift; fi
EXTRA=("$@")
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs/bench}
. "$(dirname "$0")/bench-lib.sh"
SERVER_JAR=$JAR
mkdir -p "$OUT"
bench_workdir meters
bench_start_tcnfs "$WORK" "$OUT/server.log" -Xmx512m -- --max-ops 8192 --max-request 17MiB --max-cached-reply 17MiB
meters() {
  curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" \
    | grep -E '^tcnfs_(handle_table_(snapshots|reads|cached_reads)_total|compounds_total)' | awk '{print $1, $2}' | sort
}
ticks() { bench_cpu_ticks "$TCNFS_PID"; }
macro() { # out directory
  "$JAVA" -cp "$BENCH_JAR" org.tcnfs.jmh.workload.Workloads --no-progress \
    --target "tcnfs=nfs://127.0.0.1:$TCNFS_PORT/$QUERY" --baseline tcnfs --reference tcnfs --out "$1" \
    --workloads macro --warmup-files 0 "${EXTRA[@]}" >"$1.txt" 2>&1
}
macro "$OUT/warm"
meters >"$OUT/before.txt"
T0=$(ticks)
macro "$OUT/measured"
T1=$(ticks)
meters >"$OUT/after.txt"
echo "server CPU ticks $((T1 - T0)); load: $(uptime)"
join "$OUT/before.txt" "$OUT/after.txt" | awk '$3 != $2 {print $1, $3 - $2}'
