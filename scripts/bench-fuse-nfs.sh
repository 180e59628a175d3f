#!/bin/bash
# The unmodified-client macro workload of issue 16 (docs/benchmarks.md, "The unmodified client"): fuse-nfs over
# libnfs 5.0.3 (NFSv4.0, one operation per compound), built outside the repository, mounts each server in turn;
# untar, cp -R, ls -lR, rm -rf of TREE_TAR (scripts/fuse-tree.py DIR, then tar -cf); ROUNDS rounds, targets
# interleaved per round. Appends round,target,step,seconds,rc lines to OUTDIR/fuse.csv.
# usage: scripts/bench-fuse-nfs.sh OUTDIR ROUNDS NEW_SERVER_JAR [OLD_SERVER_JAR]   (env: FUSE_NFS, TREE_TAR, BENCH_DIR;
#        TCNFS_ASYNC=1 adds target new-async: the new build with an async export, docs/durability.md)
OUT=$1; ROUNDS=$2; NEWJAR=$3; OLDJAR=$4
BUILD=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD/fuse-bench/tree.tar}
mkdir -p $OUT; W=$(mktemp -d ${BENCH_DIR:-/mnt/tcnfs-xfs}/fuse-bench-XXXX)
PIDS=()
start_tcnfs() { # name jar options
  mkdir -p $W/$1-data $W/$1-state
  java -Xmx512m -jar $2 --port 0 --port-file $W/$1.port --data $W/$1-data --data-options $3 --state $W/$1-state --grace 0 --metrics-port 0 > $OUT/$1.log 2>&1 &
  PIDS+=($!)
}
start_tcnfs new $NEWJAR rw,no_root_squash
start_tcnfs new-always $NEWJAR rw,no_root_squash,txn=always
[ "${TCNFS_ASYNC:-0}" = 1 ] && start_tcnfs new-async $NEWJAR rw,no_root_squash,async
[ -n "$OLDJAR" ] && start_tcnfs old $OLDJAR rw,no_root_squash

GP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p $W/ganesha-export $W/ganesha-recovery
cat >$W/ganesha.conf <<CONF
NFS_CORE_PARAM { NFS_Port = $GP; Bind_addr = 127.0.0.1; Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; Enable_UDP = false; }
NFSV4 { Graceless = true; Minor_Versions = 0, 1; RecoveryBackend = fs; RecoveryRoot = $W/ganesha-recovery; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT { Export_Id = 77; Path = $W/ganesha-export; Pseudo = /export; Protocols = 4; Transports = TCP;
  Access_Type = RW; Squash = No_Root_Squash; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
/usr/bin/ganesha.nfsd -F -f $W/ganesha.conf -L $OUT/ganesha.log -p $W/ganesha.pid -N NIV_EVENT > $OUT/ganesha.out 2>&1 &
PIDS+=($!)
sleep 1
for i in $(seq 1 300); do ok=1; for f in $W/*.port; do [ -s $f ] || ok=0; done; [ $ok = 1 ] && break; sleep 0.2; done
sleep 2
url() { if [ $1 = ganesha ]; then echo "nfs://127.0.0.1/export?version=4&nfsport=$GP"; else echo "nfs://127.0.0.1/?version=4&nfsport=$(cat $W/$1.port)"; fi; }
TARGETS="ganesha new new-always"; [ "${TCNFS_ASYNC:-0}" = 1 ] && TARGETS="$TARGETS new-async"; [ -n "$OLDJAR" ] && TARGETS="$TARGETS old"
TARGETS=${FUSE_TARGETS:-$TARGETS}   # e.g. FUSE_TARGETS="ganesha new new-async old" leaves new-always out
step() { # round target step command...
  local r=$1 t=$2 s=$3; shift 3
  local t0=$(date +%s.%N); "$@" > /dev/null 2> $OUT/err-$t-$s-$r.txt; local rc=$?; local t1=$(date +%s.%N)
  echo "$r,$t,$s,$(python3 -c "print(round($t1-$t0,2))"),rc=$rc" | tee -a $OUT/fuse.csv
}
for r in $(seq 1 $ROUNDS); do
  for t in $TARGETS; do
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
kill ${PIDS[@]}; sleep 3; kill -9 ${PIDS[@]} 2>/dev/null; wait 2>/dev/null
rm -rf $W
