#!/bin/bash
# The unmodified-client macro workload of issue 16 (docs/benchmarks.md, "The unmodified client"): fuse-nfs over
# libnfs 5.0.3 (NFSv4.0, one operation per compound), built outside the repository, mounts each server in turn;
# untar, cp -R, ls -lR, rm -rf of TREE_TAR (scripts/fuse-tree.py DIR, then tar -cf); ROUNDS rounds, targets
# interleaved per round. Appends round,target,step,seconds,rc lines to OUTDIR/fuse.csv.
# usage: scripts/bench-fuse-nfs.sh OUTDIR ROUNDS NEW_SERVER_JAR [OLD_SERVER_JAR]   (env: FUSE_NFS, TREE_TAR, BENCH_DIR;
#        TCNFS_ASYNC=1 adds target new-async: the new build with an async export, docs/durability.md (and old-async,
#        the old build's, when OLD_SERVER_JAR is given);
#        OLD_ALWAYS=1 adds target old-always: the old build with a txn=always export, for A/B of the transaction paths;
#        FUSE_ROTATE=1 rotates the order of the targets from round to round (a target's CPU and time depend on its
#        place in the round by 10-30 %, docs/benchmarks.md, sixteenth round; scripts/bench-fuse-cpu.py reads the pairs);
#        FUSE_WARMUP=1 first runs one untimed round (round 0) on every target, so the timed rounds meet warm servers
#        (JIT done, caches filled); TCNFS_JVM_OPTS: extra JVM options of every tcnfs server, e.g. -XX:TieredStopAtLevel=1;
#        OLD_JVM_OPTS: extra JVM options of the old targets only, after TCNFS_JVM_OPTS (the same jar twice, a JVM option
#        in one of them, compares the option side by side))
# Also appends round,target,step,cpu,jit,gc,other to OUTDIR/cpu.csv: the server's CPU seconds in each step from
# /proc (scripts/proc-cpu.py; jit = the JVM's compiler threads, gc = its GC threads; Ganesha's all in cpu and other).
OUT=$1; ROUNDS=$2; NEWJAR=$3; OLDJAR=$4
BUILD_DIR=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD_DIR/fuse-bench/tree.tar}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
GANESHA_MINOR_VERSIONS="0, 1"   # fuse-nfs speaks NFSv4.0
. "$(dirname "$0")/bench-lib.sh"   # servers stopped and the work directory removed on exit
mkdir -p $OUT; bench_workdir fuse-bench; W=$WORK
# fuse mounts left by a failure or Ctrl-C are unmounted before the servers stop
BENCH_CLEANUP_HOOKS+=('for m in "$W"/mnt-*; do mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }; done')
declare -A PORT SPID
start_tcnfs() { # name jar options
  local extra=; case $1 in old*) extra=${OLD_JVM_OPTS:-} ;; esac
  # shellcheck disable=SC2086 # several options, split on spaces
  SERVER_JAR=$2 BENCH_DATA_OPTIONS=$3 bench_start_tcnfs $W/$1 $OUT/$1.log -Xmx512m ${TCNFS_JVM_OPTS:-} $extra
  PORT[$1]=$TCNFS_PORT; SPID[$1]=$TCNFS_PID
}
start_tcnfs new $NEWJAR rw,no_root_squash
start_tcnfs new-always $NEWJAR rw,no_root_squash,txn=always
[ "${TCNFS_ASYNC:-0}" = 1 ] && start_tcnfs new-async $NEWJAR rw,no_root_squash,async
[ -n "$OLDJAR" ] && start_tcnfs old $OLDJAR rw,no_root_squash
[ -n "$OLDJAR" ] && [ "${TCNFS_ASYNC:-0}" = 1 ] && start_tcnfs old-async $OLDJAR rw,no_root_squash,async
[ -n "$OLDJAR" ] && [ "${OLD_ALWAYS:-0}" = 1 ] && start_tcnfs old-always $OLDJAR rw,no_root_squash,txn=always
bench_start_ganesha $W $OUT/ganesha.log
GP=$GANESHA_PORT; SPID[ganesha]=$GANESHA_PID
sleep 2
url() { if [ $1 = ganesha ]; then echo "nfs://127.0.0.1/export?version=4&nfsport=$GP"; else echo "nfs://127.0.0.1/?version=4&nfsport=${PORT[$1]}"; fi; }
TARGETS="ganesha new new-always"; [ "${TCNFS_ASYNC:-0}" = 1 ] && TARGETS="$TARGETS new-async"; [ -n "$OLDJAR" ] && TARGETS="$TARGETS old"
[ -n "$OLDJAR" ] && [ "${TCNFS_ASYNC:-0}" = 1 ] && TARGETS="$TARGETS old-async"
[ -n "$OLDJAR" ] && [ "${OLD_ALWAYS:-0}" = 1 ] && TARGETS="$TARGETS old-always"
TARGETS=${FUSE_TARGETS:-$TARGETS}   # e.g. FUSE_TARGETS="ganesha new new-async old" leaves new-always out
cpu() { python3 "$BENCH_ROOT/scripts/proc-cpu.py" ${SPID[$1]}; }
step() { # round target step command...: timed (round 0, the warm-up, to OUTDIR/warmup.csv), with the server's CPU
  local c0 c1; c0=$(cpu $2)
  if [ $1 = 0 ]; then bench_step $OUT/warmup.csv "$@"; else bench_step $OUT/fuse.csv "$@"; fi
  c1=$(cpu $2)
  echo "$1,$2,$3,$(python3 -c "a='$c0'.split(); b='$c1'.split(); print(','.join('%.2f' % (float(y) - float(x)) for x, y in zip(a, b)))")" >> $OUT/cpu.csv
}
uptime >> $OUT/uptime.txt
FIRST=1; [ "${FUSE_WARMUP:-0}" = 1 ] && FIRST=0
# rotate TARGETS LIST: LIST shifted left by TARGETS places (FUSE_ROTATE=1: round r starts with its r-th target)
rotate() { local n=$1; shift; local a=("$@"); n=$(( n % ${#a[@]} )); echo "${a[@]:n} ${a[@]:0:n}"; }
for r in $(seq $FIRST $ROUNDS); do
  ORDER=$TARGETS; [ "${FUSE_ROTATE:-0}" = 1 ] && ORDER=$(rotate $r $TARGETS)
  for t in $ORDER; do
    M=$W/mnt-$t; mkdir -p $M
    $FUSE -n "$(url $t)" -m $M > $OUT/fuse-$t.log 2>&1 &
    FPID=$!
    for i in $(seq 1 50); do mountpoint -q $M && break; sleep 0.1; done
    mkdir -p $M/r$r
    step $r $t untar tar --no-same-owner --no-same-permissions -xf $TREE -C $M/r$r
    step $r $t cp-R cp -R $M/r$r/tree $M/r$r/copy
    step $r $t ls-lR ls -lR $M/r$r
    step $r $t rm-rf rm -rf $M/r$r
    umount $M; wait $FPID 2>/dev/null
  done
done
uptime >> $OUT/uptime.txt
