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

DIR=/tmp/tcnfs-bench-bigfile
SIZE=10240
HEAP=96m
. "$(dirname "$0")/bench-lib.sh"   # --dir, --no-build, --help; the server stopped and WORK removed on exit
OUT=$BENCH_ROOT/target/bench-bigfile
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_cli_setup
mkdir -p "$WORK"/{data/big,local}
bench_start_tcnfs "$WORK" "$OUT/server.log" -Xmx512m -- --metrics-port off
URL=nfs://127.0.0.1:$TCNFS_PORT/big

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
