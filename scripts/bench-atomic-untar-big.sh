#!/usr/bin/env bash
# The full-size atomic untar of issue 15 item 3/4 (AtomicUntarIT runs a scaled-down one in CI): an archive of
# ENTRIES entries and about SIZE MiB (default 50,000 and 1 GiB: 500 directories, files of 1-33 KiB and three of
# 64 MiB) extracted by `tcnfs untar --atomic` with the CLI at -XmxHEAP into a fresh tcnfs server with its defaults
# (one transaction that spans compounds); every file is then checked against the archive's SHA-256 sums. Then the
# same archive with a bad last entry (a hard link to a name that does not exist, refused by the server in the last
# compound) must fail and leave nothing behind. Prints a Markdown table (time, RSS, heap, compounds) to
# OUT/atomic-untar.md. Not part of the test command: it takes minutes.
#
# Usage: scripts/bench-atomic-untar-big.sh [--dir DIR] [--out DIR] [--entries N] [--size MIB] [--heap SIZE] [--no-build]
#   --dir DIR   work directory (default /tmp/tcnfs-bench-atomic-untar; needs 4 x SIZE free: not the test mounts)
# Environment: JAVA (default java); TCNFS_CLIENT_JAR, TCNFS_SERVER_JAR (default the jars under */target).
set -euo pipefail

DIR=/tmp/tcnfs-bench-atomic-untar
ENTRIES=50000
SIZE=1024
HEAP=96m
. "$(dirname "$0")/bench-lib.sh"   # --dir, --no-build, --help; the server stopped and WORK removed on exit
OUT=$BENCH_ROOT/target/bench-atomic-untar
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --entries) ENTRIES=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_cli_setup

echo "making an archive of $ENTRIES entries, about $SIZE MiB ..." >&2
python3 - "$WORK/good.tar" "$WORK/sums.txt" "$ENTRIES" "$SIZE" <<'PY'
import hashlib, io, os, random, sys, tarfile
path, sums, entries, mib = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
random.seed(15)
dirs = 500 if entries > 5000 else max(1, entries // 50)
big = 3 if mib >= 256 else 0
files = entries - dirs
small = max(1, files - big)
mean = max(1024, (mib * 2**20 - big * 64 * 2**20) // small)
with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tar, open(sums, "w") as out:
    for d in range(dirs):
        info = tarfile.TarInfo("tree/d%d/s%d" % (d % 20, d))
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
    for i in range(files):
        size = 64 * 2**20 if i < big else random.randint(1024, 2 * mean - 1024)
        data = os.urandom(size)
        name = "tree/d%d/s%d/f%d%s" % (i % 20, i % dirs, i, ".big" if i < big else ".c")
        info = tarfile.TarInfo(name)
        info.size, info.mode = size, 0o644
        tar.addfile(info, io.BytesIO(data))
        out.write("%s  %s\n" % (hashlib.sha256(data).hexdigest(), name))
PY
cp "$WORK/good.tar" "$WORK/bad.tar"
python3 - "$WORK/bad.tar" <<'PY'
import sys, tarfile
with tarfile.open(sys.argv[1], "a") as tar:
    info = tarfile.TarInfo("tree/last-link")
    info.type, info.linkname = tarfile.LNKTYPE, "tree/no-such-file"
    tar.addfile(info)
PY

bench_start_tcnfs "$WORK" "$OUT/server.log" -Xmx512m
URL=nfs://127.0.0.1:$TCNFS_PORT
METRICS=http://127.0.0.1:$TCNFS_MPORT/metrics
metric() { curl -s "$METRICS" | awk -v m="$1" '$1 == m {print $2}' | head -1; }

# sample NAME ARCHIVE TARGET: one timed untar --atomic with a GC log; prints a table row, sets STATUS
sample() {
  local name=$1 archive=$2 target=$3 t
  t=$(mktemp)
  local c0; c0=$(metric tcnfs_txn_spanning_commits_total || true)
  local a0; a0=$(metric tcnfs_txn_spanning_aborts_total || true)
  sync
  STATUS=0
  /usr/bin/time -f "%e %M %U %S" -o "$t" "$JAVA" -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Xlog:gc:file="$OUT/gc-$name.log" -jar "$CLIENT_JAR" untar --no-progress --timeout 1800 --atomic "$archive" \
    "$URL/$target" \
    >"$OUT/$name.log" 2>&1 || STATUS=$?
  read -r secs rss user sys < <(tail -n 1 "$t")
  rm -f "$t"
  # the transaction is over on the server before anything is checked (a rollback of 50,000 entries takes minutes)
  for _ in $(seq 1 1800); do [ "$(metric tcnfs_txn_spanning_open || true)" = "0.0" ] && break; sleep 1; done
  # the largest heap in use before a collection (garbage included), and after full collections (what was live)
  local before after
  before=$(grep -o '[0-9]*M->' "$OUT/gc-$name.log" | sed 's/M->//' | sort -n | tail -1 || true)
  after=$(grep 'Pause Full' "$OUT/gc-$name.log" | grep -o '>[0-9]*M(' | sed 's/[>M(]//g' | sort -n \
    | sed -n '1p;$p' | paste -sd- || true)
  local c1; c1=$(metric tcnfs_txn_spanning_commits_total || true)
  local a1; a1=$(metric tcnfs_txn_spanning_aborts_total || true)
  ROW="| $name | $ENTRIES | $(( $(stat -c %s "$archive") / 1048576 )) | $secs | $((rss / 1024)) | $HEAP | ${before:-?} | ${after:-no full GC} | $user + $sys | $STATUS | commits +$(awk -v a="${c1:-0}" -v b="${c0:-0}" 'BEGIN {print a - b}'), aborts +$(awk -v a="${a1:-0}" -v b="${a0:-0}" 'BEGIN {print a - b}') |"
}

{
  echo "$ENTRIES entries, CLI -Xmx$HEAP, $(date -u +%FT%TZ), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| archive | entries | MiB | seconds | peak RSS MiB | -Xmx | peak heap before GC MiB | heap after full GCs MiB | CLI CPU s | exit | spanning transactions |"
  echo "|---|---:|---:|---:|---:|---|---:|---:|---|---:|---|"
  sample good "$WORK/good.tar" atomic-good
  echo "$ROW"
  GOOD=$STATUS
  if [ "$GOOD" = 0 ] && (cd "$WORK/data/atomic-good" && sha256sum --quiet -c "$WORK/sums.txt"); then
    CHECK="every file's SHA-256 matches ($(wc -l <"$WORK/sums.txt") files)"
  else
    CHECK="FAILED: exit $GOOD or SHA-256 mismatch"
  fi
  sample bad "$WORK/bad.tar" atomic-bad
  echo "$ROW"
  if [ "$STATUS" != 0 ] && [ ! -e "$WORK/data/atomic-bad" ]; then
    LEFT="the bad archive failed (exit $STATUS: $(tail -n 1 "$OUT/bad.log")) and left nothing behind"
  else
    LEFT="FAILED: exit $STATUS, atomic-bad $( [ -e "$WORK/data/atomic-bad" ] && echo exists || echo absent)"
  fi
  echo
  echo "- good archive: $CHECK"
  echo "- $LEFT"
  echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/atomic-untar.md"
