#!/usr/bin/env bash
# Atomic untar (one transaction that spans compounds, docs/protocol.md) against plain untar of the same archive
# on one tcnfs server (issue 15 item 4), with the tcnfs CLI. Makes an archive of FILES files of 1-6 KiB in 50
# directories (default 5,000 files, ~21 MB: far more than one compound holds), starts the server on a fresh
# directory under DIR, extracts the archive ROUNDS times each way (alternating), prints the times and the
# median ratio atomic/plain, and stops the server. Not part of the test command.
#
# Usage: scripts/bench-atomic-untar.sh [--dir DIR] [--files N] [--rounds N] [--no-build]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=/mnt/tcnfs-xfs/bench
FILES=5000
ROUNDS=3
BUILD=1
JAVA=${JAVA:-java}
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --files) FILES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "bench-atomic-untar.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$BUILD" = 1 ]; then
  (cd "$ROOT" && mvn -B -q -o package -DskipTests -pl server,cli -am)
fi
SERVER_JAR=$ROOT/server/target/tcnfs-server.jar
CLIENT_JAR=$ROOT/cli/target/tcnfs-cli.jar
mkdir -p "$DIR"
WORK=$(mktemp -d "$DIR/untar-XXXXXX")
PID=
cleanup() {
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
"$JAVA" -Xmx1g -jar "$SERVER_JAR" --bind 127.0.0.1 --port 0 --port-file "$WORK/port" --data "$WORK/data" \
  --state "$WORK/state" --grace 0 --metrics-port off --data-options rw,no_root_squash >"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do [ -s "$WORK/port" ] && break; kill -0 $PID; sleep 0.1; done
PORT=$(cat "$WORK/port")
echo "archive: $FILES files, $(du -h "$WORK/archive.tar" | cut -f1); server pid $PID port $PORT; $(nproc) cpus"
declare -a PLAIN ATOMIC
for r in $(seq 1 "$ROUNDS"); do
  for mode in plain atomic; do
    flag=(); [ $mode = atomic ] && flag=(--atomic)
    s=$(date +%s%N)
    "$JAVA" -jar "$CLIENT_JAR" untar --no-progress "${flag[@]}" "$WORK/archive.tar" "nfs://127.0.0.1:$PORT/$mode$r"
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    echo "round $r $mode: $ms ms"
    if [ $mode = plain ]; then PLAIN+=("$ms"); else ATOMIC+=("$ms"); fi
  done
done
python3 - "${PLAIN[*]}" "${ATOMIC[*]}" <<'PY'
import statistics, sys
p = [int(x) for x in sys.argv[1].split()]
a = [int(x) for x in sys.argv[2].split()]
print("median plain %d ms, atomic %d ms, atomic/plain %.2f" % (statistics.median(p), statistics.median(a),
      statistics.median(a) / statistics.median(p)))
PY
