#!/usr/bin/env bash
# Paired rm -rf compound latency of two tcnfs builds (issue 16): starts JAR_A and JAR_B with the same export options on
# fresh directories under BENCH_DIR (default /mnt/tcnfs-xfs/bench) and runs scripts/AltRemove.java, which sends each
# compound (one REMOVE in each of DIRS directories) to both servers in turn. Robust to load changes, unlike two runs
# one after the other. ALT_MODE=txn sends the REMOVE compounds as transactions (default plain).
# usage: scripts/bench-alt-remove.sh JAR_A JAR_B DATA_OPTIONS ROUNDS DIRS
#   e.g. scripts/bench-alt-remove.sh /work/wt/base8/server/target/tcnfs-server.jar server/target/tcnfs-server.jar \
#        rw,no_root_squash 150 50
set -euo pipefail
A=$1; B=$2; DOPT=$3; R=$4; D=$5
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar
W=$(mktemp -d "${BENCH_DIR:-/mnt/tcnfs-xfs/bench}/alt-remove-XXXX")
PIDS=()
cleanup() { set +e; for p in "${PIDS[@]}"; do kill "$p"; done; wait; rm -rf "$W"; }
trap cleanup EXIT
for n in a b; do
  J=$A; [ $n = b ] && J=$B
  mkdir -p "$W/$n-data" "$W/$n-state"
  java -Xmx512m -jar "$J" --port 0 --port-file "$W/$n.port" --data "$W/$n-data" --data-options "$DOPT" \
    --state "$W/$n-state" --grace 0 --max-ops 8192 --max-request 17MiB --metrics-port 0 >"$W/$n.log" 2>&1 &
  PIDS+=($!)
done
for _ in $(seq 1 300); do [ -s "$W/a.port" ] && [ -s "$W/b.port" ] && break; sleep 0.2; done
java -cp "$BENCH_JAR" "$ROOT/scripts/AltRemove.java" "$(cat "$W/a.port")" "$(cat "$W/b.port")" "$R" "$D" "${ALT_MODE:-plain}"
