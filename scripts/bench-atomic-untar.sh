#!/usr/bin/env bash
# Atomic untar (one transaction that spans compounds, docs/protocol.md) against plain untar of the same archive
# on one tcnfs server, and plain untar on NFS-Ganesha (issue 15 item 4), all with the tcnfs CLI. Makes an archive
# of FILES files of 1-6 KiB in 50 directories (default 5,000 files, ~21 MB: far more than one compound holds),
# starts tcnfs and Ganesha (as scripts/bench-ab.sh does; needs root, --no-ganesha leaves it out) on fresh
# directories under DIR (the same file system), extracts the archive ROUNDS times each way (alternating within
# every round), prints the times and the medians with the ratios atomic/plain and tcnfs plain/Ganesha plain, and
# stops the servers. Not part of the test command.
#
# Usage: scripts/bench-atomic-untar.sh [--dir DIR] [--files N] [--rounds N] [--no-ganesha] [--no-build]
set -euo pipefail

DIR=/mnt/tcnfs-xfs/bench
FILES=5000
ROUNDS=3
GANESHA=1
. "$(dirname "$0")/bench-lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --files) FILES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --no-ganesha) GANESHA=0; shift ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_build server,cli
bench_require "$SERVER_JAR" "$CLI_JAR"
bench_workdir untar

bench_make_archive "$WORK" "$FILES"
bench_start_tcnfs "$WORK" "$WORK/server.log" -Xmx1g -- --metrics-port off
MODES=(plain atomic)
if [ "$GANESHA" = 1 ]; then
  bench_start_ganesha "$WORK" "$WORK/ganesha.log"
  MODES+=(ganesha)
fi
echo "archive: $FILES files, $(du -h "$WORK/archive.tar" | cut -f1); tcnfs pid $TCNFS_PID port $TCNFS_PORT;" \
  "ganesha ${GANESHA_PORT:-off}; $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A TIMES
for r in $(seq 1 "$ROUNDS"); do
  for mode in "${MODES[@]}"; do
    flag=()
    url=nfs://127.0.0.1:$TCNFS_PORT/$mode$r
    case $mode in
      atomic) flag=(--atomic) ;;
      ganesha) url=nfs://127.0.0.1:$GANESHA_PORT/export/$mode$r ;;
    esac
    s=$(date +%s%N)
    "$JAVA" -jar "$CLI_JAR" untar --no-progress "${flag[@]}" "$WORK/archive.tar" "$url"
    ms=$(( ($(date +%s%N) - s) / 1000000 ))
    echo "round $r $mode: $ms ms"
    TIMES[$mode]="${TIMES[$mode]:-} $ms"
  done
done
python3 - "${TIMES[plain]}" "${TIMES[atomic]}" "${TIMES[ganesha]:-}" <<'PY'
import statistics, sys
p, a, g = ([int(x) for x in arg.split()] for arg in sys.argv[1:4])
mp, ma = statistics.median(p), statistics.median(a)
print("median tcnfs plain %d ms, tcnfs atomic %d ms, atomic/plain %.2f" % (mp, ma, ma / mp))
if g:
    mg = statistics.median(g)
    print("median ganesha plain %d ms; tcnfs plain/ganesha plain %.2f, tcnfs atomic/ganesha plain %.2f"
          % (mg, mp / mg, ma / mg))
PY
