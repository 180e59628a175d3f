#!/bin/bash
# ls -lR of the same tree (scripts/fuse-tree.py, tarred) through fuse-nfs (docs/benchmarks.md, "The unmodified client":
# libnfs 5.0.3, NFSv4.0) on NFS-Ganesha, an old and a new tcnfs build, ROUNDS rounds, targets interleaved, 2 s apart
# (past fuse's attribute timeout); round 1 also registers every handle on tcnfs. Appends to OUTDIR/fusels.csv, with the
# server's CPU time for the round (user + system /proc ticks, ms; tcnfs only).
# usage: scripts/bench-fuse-ls.sh OLD_JAR NEW_JAR OUTDIR ROUNDS   (env: FUSE_NFS, TREE_TAR, BENCH_DIR, BUILD)
OLD=$1; NEW=$2; OUT=$3; ROUNDS=$4
BUILD_DIR=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD_DIR/fuse-bench/tree.tar}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
GANESHA_MINOR_VERSIONS="0, 1"   # fuse-nfs speaks NFSv4.0
. "$(dirname "$0")/bench-lib.sh"   # servers stopped and the work directory removed on exit
mkdir -p $OUT; bench_workdir fusels; W=$WORK
# fuse mounts left by a failure or Ctrl-C are unmounted before the servers stop
BENCH_CLEANUP_HOOKS+=('for m in "$W"/mnt-*; do mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }; done')
declare -A PORT PID
for t in old new; do
  mkdir -p $W/$t/data; tar -C $W/$t/data -xf $TREE
  JAR=$OLD; [ $t = new ] && JAR=$NEW
  SERVER_JAR=$JAR bench_start_tcnfs $W/$t $OUT/$t.log -Xmx512m
  PORT[$t]=$TCNFS_PORT PID[$t]=$TCNFS_PID
done
mkdir -p $W/ganesha-export; tar -C $W/ganesha-export -xf $TREE
bench_start_ganesha $W $OUT/ganesha.log
GP=$GANESHA_PORT
sleep 2
for t in ganesha old new; do
  M=$W/mnt-$t; mkdir -p $M
  if [ $t = ganesha ]; then U="nfs://127.0.0.1/export?version=4&nfsport=$GP"; else U="nfs://127.0.0.1/?version=4&nfsport=${PORT[$t]}"; fi
  $FUSE -n "$U" -m $M > $OUT/fuse-$t.log 2>&1 &
  for i in $(seq 1 50); do mountpoint -q $M && break; sleep 0.1; done
done
# cpu_ms TARGET: the tcnfs server's user + system CPU time so far in ms (0 for Ganesha)
cpu_ms() {
  [ -n "${PID[$1]:-}" ] || { echo 0; return; }
  echo $(( $(bench_cpu_ticks "${PID[$1]}") * 1000 / $(getconf CLK_TCK) ))
}
for r in $(seq 1 $ROUNDS); do
  for t in ganesha old new; do
    c0=$(cpu_ms $t); t0=$(date +%s.%N); ls -lR $W/mnt-$t > $OUT/ls-$t.txt; rc=$?; t1=$(date +%s.%N); c1=$(cpu_ms $t)
    echo "$r,$t,ls-lR,$(python3 -c "print(round($t1-$t0,3))"),rc=$rc,load=$(cut -d' ' -f1 /proc/loadavg),cpu_ms=$((c1 - c0))" \
      | tee -a $OUT/fusels.csv
  done
  sleep 2   # past fuse's 1 s attribute and entry timeouts, so every round asks the servers again
done
for t in ganesha old new; do umount $W/mnt-$t; done
