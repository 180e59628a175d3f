#!/usr/bin/env bash
# Per-entry cost of ls -lR and rm -rf on one tcnfs server (issue 16; docs/benchmarks.md, "Issue 16, rm -rf and
# ls -lR"): starts SERVER_JAR on a fresh directory under BENCH_DIR (default /mnt/tcnfs-xfs/bench) and runs
# scripts/TreePhases.java ROUNDS times in MODE (plain or txn). STRACE=1 also records every system call of the server
# (strace -f) into OUT/strace.txt; scripts/strace-phase.py OUT/strace.txt MARK_RM_1 MARK_END_1 counts one phase.
# DATA_OPTIONS (default rw,no_root_squash) sets the export options, e.g. rw,no_root_squash,async.
# usage: scripts/bench-tree-phases.sh SERVER_JAR OUT MODE ROUNDS [server JVM options]
set -euo pipefail
JAR=$1; OUT=$2; MODE=$3; ROUNDS=$4; shift 4
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar
mkdir -p "$OUT"
W=$(mktemp -d "${BENCH_DIR:-/mnt/tcnfs-xfs/bench}/tree-phases-XXXX")
mkdir -p "$W/data" "$W/state"
java -Xmx512m "$@" -jar "$JAR" --port 0 --port-file "$W/port" --data "$W/data" --data-options "${DATA_OPTIONS:-rw,no_root_squash}" \
  --state "$W/state" --grace 0 --max-ops 8192 --max-request 17MiB --max-cached-reply 17MiB \
  --reply-cache-memory 200MiB --metrics-port 0 --metrics-port-file "$W/mport" >"$OUT/server.log" 2>&1 &
SP=$!
STP=
cleanup() { set +e; [ -n "$STP" ] && kill -INT "$STP" && wait "$STP"; kill "$SP"; wait "$SP"; rm -rf "$W"; }
trap cleanup EXIT
for _ in $(seq 1 300); do [ -s "$W/port" ] && [ -s "$W/mport" ] && break; sleep 0.2; done
if [ "${STRACE:-0}" = 1 ]; then strace -f -qq -o "$OUT/strace.txt" -p "$SP" & STP=$!; sleep 1; fi
java -cp "$BENCH_JAR" "$ROOT/scripts/TreePhases.java" "$(cat "$W/port")" "$(cat "$W/mport")" "$SP" "$MODE" "$ROUNDS" \
  | tee "$OUT/phases.txt"
