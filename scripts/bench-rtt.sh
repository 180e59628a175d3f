#!/bin/bash
# Round trip of a one-op compound: the fixed cost of a small call, socket read to reply write, on tcnfs (this
# build, and optionally an older jar) and NFS-Ganesha side by side. Starts the servers on 127.0.0.1 (tcnfs
# with an `async` export, so no flush is in the way; Ganesha with NFSv4.0), then runs scripts/rtt-probe.py:
# NULL and an NFSv4.0 COMPOUND of PUTROOTFH+GETATTR, one call at a time on one connection, the servers
# interleaved; prints median, p90 and mean in microseconds per server and call kind, and the load average.
#
# Usage: scripts/bench-rtt.sh [--dir DIR] [--no-build] [--jar JAR] [--old JAR] [--calls N] [--rounds R] [--walk N]
#   --jar JAR   time this server jar as "new" (default: this build's, server/target/tcnfs-server.jar)
#   --old JAR   also time this server jar (e.g. a build of main) as "old"
#   --walk N    also time a path walk of N names (PUTROOTFH, N LOOKUPs, GETFH, GETATTR: how libnfs resolves a path)
#               through directories made before the servers start
#   --dir DIR   where the servers' work directories go (default /mnt/tcnfs-xfs, else /tmp)
# Needs root for Ganesha (apt-get install nfs-ganesha nfs-ganesha-vfs).
set -u
DIR=/mnt/tcnfs-xfs
[ -d "$DIR" ] || DIR=/tmp
OLD= CALLS=2000 ROUNDS=3 WALK=0 JAR=
. "$(dirname "$0")/bench-lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --old) OLD=$2; shift 2 ;;
    --jar) JAR=$2; BUILD=0; shift 2 ;;
    --walk) WALK=$2; shift 2 ;;
    --calls) CALLS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_build server
[ -n "$JAR" ] && SERVER_JAR=$JAR
bench_require "$SERVER_JAR"
GANESHA_MINOR_VERSIONS="0, 1"
BENCH_DATA_OPTIONS=rw,no_root_squash,async
bench_workdir rtt
# the walk's directories: w0/w1/... in each tcnfs export; export/w0/... (as many names) behind Ganesha's pseudo root
TPATH= GPATH=export
for i in $(seq 0 $((WALK - 1))); do TPATH=$TPATH/w$i; [ $i -lt $((WALK - 1)) ] && GPATH=$GPATH/w$i; done
[ "$WALK" -gt 0 ] && mkdir -p "$WORK/new/data$TPATH" "$WORK/old/data$TPATH" "$WORK/ganesha-export/${GPATH#export}"
[ "$WALK" -gt 0 ] || { TPATH=; GPATH=; }
TARGETS=()
bench_start_tcnfs "$WORK/new" "$WORK/new.log" -Xmx512m
TARGETS+=("new=$TCNFS_PORT$TPATH")
if [ -n "$OLD" ]; then
  SERVER_JAR=$OLD bench_start_tcnfs "$WORK/old" "$WORK/old.log" -Xmx512m
  TARGETS+=("old=$TCNFS_PORT$TPATH")
fi
bench_start_ganesha "$WORK" "$WORK/ganesha.log"
sleep 2
uptime
python3 "$BENCH_ROOT/scripts/rtt-probe.py" --calls "$CALLS" --rounds "$ROUNDS" "ganesha=$GANESHA_PORT${GPATH:+/$GPATH}" "${TARGETS[@]}"
uptime
