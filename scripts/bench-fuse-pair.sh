#!/bin/bash
# Two tcnfs builds through fuse-nfs at the same time (docs/benchmarks.md, h-inline): on a machine whose load
# others make, steps run side by side meet the same load, where steps run one after the other do not. Each server
# has an `async` export and its own fuse-nfs mount; WARMUP untimed rounds, then ROUNDS timed ones of untar, cp -R,
# ls -lR and rm -rf of TREE_TAR, the two builds' steps started together (each step waits for both).
# Appends round,target,step,seconds,cpu,jit,gc,rest to OUTDIR/pair.csv (the server's CPU seconds in the step,
# scripts/proc-cpu.py).
# usage: scripts/bench-fuse-pair.sh OUTDIR ROUNDS NEW_JAR OLD_JAR [WARMUP]   (env: BUILD, FUSE_NFS, TREE_TAR, BENCH_DIR)
OUT=$1; ROUNDS=$2; NEWJAR=$3; OLDJAR=$4; WARMUP=${5:-1}
BUILD_DIR=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD_DIR/fuse-bench/tree.tar}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
. "$(dirname "$0")/bench-lib.sh"
mkdir -p $OUT; OUT=$(cd $OUT && pwd); bench_workdir fuse-pair; W=$WORK
BENCH_CLEANUP_HOOKS+=('for m in "$W"/mnt-*; do mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }; done')
declare -A PID
for t in new old; do
  JAR=$NEWJAR; [ $t = old ] && JAR=$OLDJAR
  SERVER_JAR=$JAR BENCH_DATA_OPTIONS=rw,no_root_squash,async bench_start_tcnfs $W/$t $OUT/$t.log -Xmx512m
  PID[$t]=$TCNFS_PID
  mkdir -p $W/mnt-$t
  $FUSE -n "nfs://127.0.0.1/?version=4&nfsport=$TCNFS_PORT" -m $W/mnt-$t > $OUT/fuse-$t.log 2>&1 &
  for _ in $(seq 1 50); do mountpoint -q $W/mnt-$t && break; sleep 0.1; done
done
timed() { # round target step command...
  local r=$1 t=$2 s=$3; shift 3
  local c0 c1 t0 t1
  c0=$(python3 "$BENCH_ROOT/scripts/proc-cpu.py" ${PID[$t]}); t0=$(date +%s.%N)
  "$@" > /dev/null 2>> $OUT/err-$t.txt
  t1=$(date +%s.%N); c1=$(python3 "$BENCH_ROOT/scripts/proc-cpu.py" ${PID[$t]})
  [ $r -gt 0 ] && echo "$r,$t,$s,$(python3 -c "a='$c0'.split(); b='$c1'.split(); print(round($t1-$t0,2), *('%.2f' % (float(y) - float(x)) for x, y in zip(a, b)), sep=',')")" >> $OUT/pair.csv
}
both() { # round step command-with-MNT...
  local r=$1 s=$2; shift 2
  local jobs=()
  for t in new old; do timed $r $t $s $(echo "$@" | sed "s|MNT|$W/mnt-$t|g") & jobs+=($!); done
  wait "${jobs[@]}"   # not the servers
}
uptime >> $OUT/uptime.txt
for r in $(seq $((1 - WARMUP)) $ROUNDS); do
  for t in new old; do mkdir -p $W/mnt-$t/r$r; done
  both $r untar tar --no-same-owner --no-same-permissions -xf $TREE -C MNT/r$r
  both $r cp-R cp -R MNT/r$r/tree MNT/r$r/copy
  both $r ls-lR ls -lR MNT/r$r
  both $r rm-rf rm -rf MNT/r$r
done
uptime >> $OUT/uptime.txt
for t in new old; do umount $W/mnt-$t; done
cat $OUT/pair.csv
