#!/usr/bin/env bash
# What each operation of the driver's write compounds costs one tcnfs server (issue 16, docs/benchmarks.md "CPU per
# write under 8 clients"): starts SERVER_JAR on fresh directories under BENCH_DIR (default /mnt/tcnfs-xfs/bench), sends
# every VARIANT 60 times untimed (scripts/WriteOps.java), then for each VARIANT 20 compounds of 16 files under
# `strace -f -c` and prints per file the server's metrics that moved (resolutions, fsyncs, commits) and its system
# calls. DATA_OPTIONS sets the export options (default rw,no_root_squash; rw,no_root_squash,async for async).
# usage: scripts/bench-write-ops.sh SERVER_JAR OUT_DIR VARIANT...
#   e.g. scripts/bench-write-ops.sh server/target/tcnfs-server.jar target/write-ops open open-write open-write-close \
#        existing-write-close noopen
set -euo pipefail
JAR=$1; OUT=$2; shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_JAR=$ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar
mkdir -p "$OUT" "${BENCH_DIR:-/mnt/tcnfs-xfs/bench}"
W=$(mktemp -d "${BENCH_DIR:-/mnt/tcnfs-xfs/bench}/write-ops-XXXXXX")
mkdir -p "$W/data" "$W/state"
java -Xmx512m -jar "$JAR" --bind 127.0.0.1 --port 0 --port-file "$W/port" --data "$W/data" --state "$W/state" \
  --grace 0 --metrics-port 0 --metrics-port-file "$W/mport" --data-options "${DATA_OPTIONS:-rw,no_root_squash}" \
  >"$OUT/server.log" 2>&1 &
SP=$!
cleanup() { set +e; kill "$SP" 2>/dev/null; wait "$SP" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
for _ in $(seq 1 300); do [ -s "$W/port" ] && [ -s "$W/mport" ] && break; sleep 0.2; done
P=$(cat "$W/port"); M=$(cat "$W/mport")
metrics() {
  curl -s "http://127.0.0.1:$M/metrics" | grep -E '^tcnfs_(handle_resolutions_total|symlink_checks_total|fsyncs_total|lmdb_durable_commits_total|fsync_pool_handoffs_total|handle_table_commits_total)' || true
}
probe() { java -cp "$BENCH_JAR" "$ROOT/scripts/WriteOps.java" "$P" "$@"; }
for v in "$@"; do probe "$v" 60 "warm-$v" >/dev/null; done
probe existing-write-close 1 existing >/dev/null
for v in "$@"; do
  d=measured-$v; [[ $v == existing* ]] && d=existing
  metrics >"$OUT/$v.before"
  strace -q -f -c -o "$OUT/$v.strace" -p "$SP" &
  ST=$!
  sleep 1
  probe "$v" 20 "$d"
  sleep 0.3
  kill -INT "$ST"; wait "$ST" || true
  metrics >"$OUT/$v.after"
  echo "== $v, per file (320 files)"
  join <(sort "$OUT/$v.before") <(sort "$OUT/$v.after") | awk '{ d = $3 - $2; if (d) printf "  %s %.2f\n", $1, d / 320 }'
  awk 'NR > 2 && $NF != "total" && $4 ~ /^[0-9]+$/ { printf "  %s %.2f", $NF, $4 / 320 } END { print "" }' "$OUT/$v.strace"
done
