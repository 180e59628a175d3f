#!/usr/bin/env bash
# One very large file through the tcnfs CLI with a small heap (issue 15 item 1: "the CLI at -Xmx96m moves a
# 10 GiB file"; docs/benchmarks.md "Large-file transfers"): put, then get, of a SIZE-MiB file of random bytes
# with the CLI at -XmxHEAP, each checked with sha256sum. Records wall time, peak RSS, the CLI's CPU, and its
# heap (the largest heap in use before any GC, from -Xlog:gc) in OUT/bigfile.md. Not part of the test command.
#
# Usage: scripts/bench-bigfile.sh [--dir DIR] [--out DIR] [--size MIB] [--heap SIZE] [--no-build]
#   --dir DIR   work directory (default /tmp/tcnfs-bench-bigfile; needs 3 x SIZE free, so not the test mounts)
#   --out DIR   results (default target/bench-bigfile)
#   --size MIB  file size (default 10240 = 10 GiB)
#   --heap SIZE the CLI's -Xmx (default 96m)
# Environment: JAVA (default java); TCNFS_CLIENT_JAR, TCNFS_SERVER_JAR (default the jars under */target).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=/tmp/tcnfs-bench-bigfile
OUT=$ROOT/target/bench-bigfile
SIZE=10240
HEAP=96m
BUILD=1
JAVA=${JAVA:-java}
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench-bigfile.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
SERVER_JAR=${TCNFS_SERVER_JAR:-$ROOT/server/target/tcnfs-server.jar}
CLIENT_JAR=${TCNFS_CLIENT_JAR:-$ROOT/cli/target/tcnfs-cli.jar}
if [ "$BUILD" = 1 ]; then
  (cd "$ROOT" && mvn -B -q -o package -DskipTests -pl server,cli -am)
fi
mkdir -p "$DIR" "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "$DIR/run-XXXXXX")
mkdir -p "$WORK"/{data/big,state,local}
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
"$JAVA" -Xmx512m -jar "$SERVER_JAR" --bind 127.0.0.1 --port 0 --port-file "$WORK/port" --data "$WORK/data" \
  --state "$WORK/state" --grace 0 --data-options rw,no_root_squash >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 300); do [ -s "$WORK/port" ] && break; sleep 0.1; done
[ -s "$WORK/port" ] || { echo "bench-bigfile.sh: the server did not start (see $OUT/server.log)" >&2; exit 1; }
URL=nfs://127.0.0.1:$(tr -d '[:space:]' <"$WORK/port")/big

echo "making $SIZE MiB of random bytes ..." >&2
head -c $((SIZE * 1024 * 1024)) /dev/urandom >"$WORK/local/src.bin"
SUM=$(sha256sum "$WORK/local/src.bin" | cut -d' ' -f1)
CLI=("$JAVA" -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto)

# sample NAME CHECK-FILE ARGS...: one timed run of the CLI with a GC log; a row of bigfile.md
sample() {
  local name=$1 check=$2; shift 2
  local t status=ok
  t=$(mktemp)
  sync
  if ! /usr/bin/time -f "%e %M %U %S" -o "$t" "${CLI[@]}" -Xlog:gc:file="$OUT/gc-$name.log" -jar "$CLIENT_JAR" \
      "$@" >"$OUT/$name.log" 2>&1; then status=failed; fi
  read -r secs rss user sys < <(tail -n 1 "$t")
  rm -f "$t"
  local got; got=$(sha256sum "$check" | cut -d' ' -f1)
  [ "$got" = "$SUM" ] || status="$status, checksum differs"
  # the largest heap in use before a collection (garbage included), and the largest after a full collection
  # (what was live then; young collections promote garbage that only a full one frees, so their "after" is no bound)
  local before after gcs
  before=$(grep -o '[0-9]*M->' "$OUT/gc-$name.log" | sed 's/M->//' | sort -n | tail -1 || true)
  after=$(grep 'Pause Full' "$OUT/gc-$name.log" | grep -o '>[0-9]*M(' | sed 's/[>M(]//g' | sort -n | tail -1 || true)
  gcs=$(grep -c 'Pause' "$OUT/gc-$name.log" || true)
  echo "| $name | $SIZE | $secs | $(awk -v s="$secs" -v m="$SIZE" 'BEGIN {printf "%.0f", m / s}') | $((rss / 1024)) | $HEAP | ${before:-?} | ${after:-no full GC} | $gcs | $user + $sys | $status |"
}

{
  echo "$SIZE MiB, CLI -Xmx$HEAP, $(date -u +%FT%TZ), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| command | MiB | seconds | MiB/s | peak RSS MiB | -Xmx | peak heap in use before GC MiB | heap after full GC MiB | GCs | CLI CPU s (user + system) | sha256 |"
  echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|"
  sample put "$WORK/data/big/file.bin" put "$WORK/local/src.bin" "$URL/file.bin"
  sample get "$WORK/local/copy.bin" get "$URL/file.bin" "$WORK/local/copy.bin"
  echo
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/bigfile.md"
