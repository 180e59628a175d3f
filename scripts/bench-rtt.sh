#!/bin/bash
# Round trip of a one-op compound: the fixed cost of a small call, socket read to reply write, on tcnfs (this
# build, and optionally an older jar) and NFS-Ganesha side by side. Starts the servers on 127.0.0.1 (tcnfs
# with an `async` export, so no flush is in the way; Ganesha with NFSv4.0), then runs scripts/rtt-probe.py:
# NULL and an NFSv4.0 COMPOUND of PUTROOTFH+GETATTR, one call at a time on one connection, the servers
# interleaved; prints median, p90 and mean in microseconds per server and call kind, and the load average.
#
# Usage: scripts/bench-rtt.sh [--dir DIR] [--no-build] [--old JAR] [--calls N] [--rounds R]
#   --old JAR   also time this server jar (e.g. a build of main) as "old"
#   --dir DIR   where the servers' work directories go (default /mnt/tcnfs-xfs, else /tmp)
# Needs root for Ganesha (apt-get install nfs-ganesha nfs-ganesha-vfs).
set -u
DIR=/mnt/tcnfs-xfs
[ -d "$DIR" ] || DIR=/tmp
OLD= CALLS=2000 ROUNDS=3
. "$(dirname "$0")/bench-lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --old) OLD=$2; shift 2 ;;
    --calls) CALLS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_build server
bench_require "$SERVER_JAR"
GANESHA_MINOR_VERSIONS="0, 1"
BENCH_DATA_OPTIONS=rw,no_root_squash,async
bench_workdir rtt
TARGETS=()
bench_start_tcnfs "$WORK/new" "$WORK/new.log" -Xmx512m
TARGETS+=("new=$TCNFS_PORT")
if [ -n "$OLD" ]; then
  SERVER_JAR=$OLD bench_start_tcnfs "$WORK/old" "$WORK/old.log" -Xmx512m
  TARGETS+=("old=$TCNFS_PORT")
fi
bench_start_ganesha "$WORK" "$WORK/ganesha.log"
sleep 2
uptime
python3 "$BENCH_ROOT/scripts/rtt-probe.py" --calls "$CALLS" --rounds "$ROUNDS" "ganesha=$GANESHA_PORT" "${TARGETS[@]}"
uptime
