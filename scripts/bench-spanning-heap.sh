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

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=/mnt/tcnfs-xfs/bench
FILES=3000
CLIENTS=8
HEAP=256m
BUILD=1
JAVA=${JAVA:-java}
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --clients) CLIENTS=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "bench-spanning-heap.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$BUILD" = 1 ]; then
  (cd "$ROOT" && mvn -B -q -o package -DskipTests -pl server,cli -am)
fi
SERVER_JAR=$ROOT/server/target/tcnfs-server.jar
CLIENT_JAR=$ROOT/cli/target/tcnfs-cli.jar
mkdir -p "$DIR"
WORK=$(mktemp -d "$DIR/heap-XXXXXX")
PID=
SAMPLER=
cleanup() {
  [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null || true
  [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

python3 - "$WORK/src" "$FILES" <<'PY'
import os, random, sys
root, files = sys.argv[1], int(sys.argv[2])
random.seed(1)
for i in range(files):
    d = os.path.join(root, "pkg%d" % (i % 50))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "file%d.c" % i), "wb") as f:
        f.write(os.urandom(random.randint(1024, 6144)))
PY
tar cf "$WORK/archive.tar" -C "$WORK" src
rm -rf "$WORK/src"
mkdir -p "$WORK/data" "$WORK/state"
"$JAVA" -Xmx"$HEAP" -jar "$SERVER_JAR" --bind 127.0.0.1 --port 0 --port-file "$WORK/port" --data "$WORK/data" \
  --state "$WORK/state" --grace 0 --metrics-port 0 --metrics-port-file "$WORK/mport" \
  --data-options rw,no_root_squash >"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do [ -s "$WORK/port" ] && [ -s "$WORK/mport" ] && break; kill -0 $PID; sleep 0.1; done
PORT=$(cat "$WORK/port")
MPORT=$(cat "$WORK/mport")
echo "archive: $FILES files, $(du -h "$WORK/archive.tar" | cut -f1); server -Xmx$HEAP pid $PID port $PORT" \
  "metrics $MPORT; $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"

# one line per sample: phase, heap bytes, open spanning transactions
(
  while kill -0 $PID 2>/dev/null; do
    phase=$(cat "$WORK/phase" 2>/dev/null || echo idle)
    curl -s "http://127.0.0.1:$MPORT/metrics" | awk -v phase="$phase" '
      /^jvm_memory_used_bytes\{.*area="heap"/ { heap += $NF }
      /^tcnfs_txn_spanning_open / { open = $NF }
      /^jvm_gc_live_data_size_bytes / { live = $NF }
      END { if (heap > 0) printf "%s %d %d %d\n", phase, heap, open, live }' >>"$WORK/samples" || true
    sleep 0.2
  done
) &
SAMPLER=$!

run() { # phase, number of clients
  echo "$1" >"$WORK/phase"
  local s pids=() i
  s=$(date +%s%N)
  for i in $(seq 1 "$2"); do # each target made first, so the transactions do not all lock the root directory
    "$JAVA" -jar "$CLIENT_JAR" mkdir "nfs://127.0.0.1:$PORT/$1-$i"
  done
  s=$(date +%s%N)
  for i in $(seq 1 "$2"); do
    "$JAVA" -jar "$CLIENT_JAR" untar --no-progress --atomic "$WORK/archive.tar" "nfs://127.0.0.1:$PORT/$1-$i" &
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
awk '{ n[$1]++; if ($2 > h[$1]) h[$1] = $2; if ($3 > o[$1]) o[$1] = $3; if ($4 > l[$1]) l[$1] = $4 }
     END { for (p in n) printf "phase %-5s: %4d samples, peak heap in use %.1f MiB, peak old generation after GC " \
           "%.1f MiB, peak open spanning transactions %d\n", p, n[p], h[p] / 1048576, l[p] / 1048576, o[p] }' \
  "$WORK/samples" | sort
curl -s "http://127.0.0.1:$MPORT/metrics" \
  | grep -E '^(tcnfs_txn_spanning_(commits|aborts)_total|tcnfs_compound_ops_(count|max)|jvm_gc_pause_seconds_count)' \
  || true
