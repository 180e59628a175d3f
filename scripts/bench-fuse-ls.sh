#!/bin/bash
# ls -lR of the same tree (scripts/fuse-tree.py, tarred) through fuse-nfs (docs/benchmarks.md, "The unmodified client":
# libnfs 5.0.3, NFSv4.0) on NFS-Ganesha, an old and a new tcnfs build, ROUNDS rounds, targets interleaved, 2 s apart
# (past fuse's attribute timeout); round 1 also registers every handle on tcnfs. Appends to OUTDIR/fusels.csv.
# usage: scripts/bench-fuse-ls.sh OLD_JAR NEW_JAR OUTDIR ROUNDS   (env: FUSE_NFS, TREE_TAR, BENCH_DIR, BUILD)
OLD=$1; NEW=$2; OUT=$3; ROUNDS=$4
BUILD=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD/fuse-bench/tree.tar}
mkdir -p $OUT; W=$(mktemp -d ${BENCH_DIR:-/mnt/tcnfs-xfs}/fusels-XXXX); PIDS=()
for t in old new; do
  mkdir -p $W/$t-data $W/$t-state; tar -C $W/$t-data -xf $TREE
  JAR=$OLD; [ $t = new ] && JAR=$NEW
  java -Xmx512m -jar $JAR --port 0 --port-file $W/$t.port --data $W/$t-data --data-options rw,no_root_squash --state $W/$t-state --grace 0 --metrics-port 0 > $OUT/$t.log 2>&1 &
  PIDS+=($!); eval "PID_$t=$!"
done
GP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p $W/ganesha-export $W/ganesha-recovery; tar -C $W/ganesha-export -xf $TREE
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
for i in $(seq 1 600); do [ -s $W/old.port ] && [ -s $W/new.port ] && break; sleep 0.2; done; sleep 2
for t in ganesha old new; do
  M=$W/mnt-$t; mkdir -p $M
  if [ $t = ganesha ]; then U="nfs://127.0.0.1/export?version=4&nfsport=$GP"; else U="nfs://127.0.0.1/?version=4&nfsport=$(cat $W/$t.port)"; fi
  $FUSE -n "$U" -m $M > $OUT/fuse-$t.log 2>&1 &
  for i in $(seq 1 50); do mountpoint -q $M && break; sleep 0.1; done
done
for r in $(seq 1 $ROUNDS); do
  for t in ganesha old new; do
    t0=$(date +%s.%N); ls -lR $W/mnt-$t > $OUT/ls-$t.txt; rc=$?; t1=$(date +%s.%N)
    echo "$r,$t,ls-lR,$(python3 -c "print(round($t1-$t0,3))"),rc=$rc,load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a $OUT/fusels.csv
  done
  sleep 2   # past fuse's 1 s attribute and entry timeouts, so every round asks the servers again
done
for t in ganesha old new; do umount $W/mnt-$t; done
kill ${PIDS[@]}; sleep 3; kill -9 ${PIDS[@]} 2>/dev/null; wait 2>/dev/null; rm -rf $W
