#!/usr/bin/env bash
# The server's heap while clients run transactions that span compounds (issue 15 item 4). Makes an archive of
# FILES files of 1-6 KiB in 50 directories (default 3,000 files, ~13 MB: several compounds' worth), starts one
# server with -Xmx256m (HEAP) on a fresh directory under DIR, and runs `tcnfs untar --atomic` of it first with 1
# client, then with CLIENTS (default 8) clients at once, each into its own directory (made first, outside the
# transactions). A sampler reads /metrics every 200 ms (the sum of jvm_memory_used_bytes{area="heap"}, garbage
# included; jvm_gc_live_data_size_bytes, the old generation after the last GC; tcnfs_txn_spanning_open) and prints their peaks per phase, then the
# spanning commits and aborts, the COMPOUND count and the GC pauses. Not part of the tests.
#
# DIR needs room for CLIENTS + 1 extracted trees (the test XFS at /mnt/tcnfs-xfs holds 448 MiB: the default
# archive fits, --files 8000 does not).
#
# Usage: scripts/bench-spanning-heap.sh [--dir DIR] [--files N] [--clients N] [--heap 256m] [--no-build]
set -euo pipefail

DIR=/mnt/tcnfs-xfs/bench
FILES=3000
CLIENTS=8
HEAP=256m
. "$(dirname "$0")/bench-lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --files) FILES=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_build server,cli
bench_require "$SERVER_JAR" "$CLI_JAR"
bench_workdir heap
SAMPLER=
BENCH_CLEANUP_HOOKS+=('[ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null')

bench_make_archive "$WORK" "$FILES"
bench_start_tcnfs "$WORK" "$WORK/server.log" -Xmx"$HEAP"
PID=$TCNFS_PID
PORT=$TCNFS_PORT
MPORT=$TCNFS_MPORT
echo "archive: $FILES files, $(du -h "$WORK/archive.tar" | cut -f1); server -Xmx$HEAP pid $PID port $PORT" \
  "metrics $MPORT; $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"

# one line per sample: phase, heap bytes, open spanning transactions
(
  while kill -0 $PID 2>/dev/null; do
    phase=$(cat "$WORK/phase" 2>/dev/null || echo idle)
    curl -s "http://127.0.0.1:$MPORT/metrics" | awk -v phase="$phase" '
      /^jvm_memory_used_bytes\{.*area="heap"/ { heap += $NF }
      /^tcnfs_txn_spanning_open / { open = $NF }
      /^tcnfs_txn_spanning_held_ops / { held = $NF }
      /^jvm_gc_live_data_size_bytes / { live = $NF }
      END { if (heap > 0) printf "%s %d %d %d %d\n", phase, heap, open, live, held }' >>"$WORK/samples" || true
    sleep 0.2
  done
) &
SAMPLER=$!

run() { # phase, number of clients
  echo "$1" >"$WORK/phase"
  local s pids=() i
  s=$(date +%s%N)
  for i in $(seq 1 "$2"); do # each target made first, so the transactions do not all lock the root directory
    "$JAVA" -jar "$CLI_JAR" mkdir "nfs://127.0.0.1:$PORT/$1-$i"
  done
  s=$(date +%s%N)
  for i in $(seq 1 "$2"); do
    "$JAVA" -jar "$CLI_JAR" untar --no-progress --atomic "$WORK/archive.tar" "nfs://127.0.0.1:$PORT/$1-$i" &
    pids+=($!)
  done
  local failed=0
  for i in "${pids[@]}"; do wait "$i" || failed=$((failed + 1)); done
  echo "$1: $2 client(s), $failed failed, done in $(( ($(date +%s%N) - s) / 1000000 )) ms"
  sleep 1 # a few samples after the commits
  echo idle >"$WORK/phase"
}
echo idle >"$WORK/phase"
sleep 1
run one 1
run eight "$CLIENTS"
sleep 0.5
kill "$SAMPLER" 2>/dev/null || true
SAMPLER=
awk '{ n[$1]++; if ($2 > h[$1]) h[$1] = $2; if ($3 > o[$1]) o[$1] = $3; if ($4 > l[$1]) l[$1] = $4
       if ($5 > k[$1]) k[$1] = $5 }
     END { for (p in n) printf "phase %-5s: %4d samples, peak heap in use %.1f MiB, peak old generation after GC " \
           "%.1f MiB, peak open spanning transactions %d, peak held operations %d\n", p, n[p], h[p] / 1048576, \
           l[p] / 1048576, o[p], k[p] }' \
  "$WORK/samples" | sort
curl -s "http://127.0.0.1:$MPORT/metrics" \
  | grep -E '^(tcnfs_txn_spanning_(commits|aborts|held_ops_refusals)_total|tcnfs_compound_ops_(count|sum|max)|jvm_gc_pause_seconds_count)' \
  || true
