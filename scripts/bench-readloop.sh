#!/bin/bash
# The read side of issue 16 one operation per compound (docs/benchmarks.md, "Issue 16, second round"): starts two
# tcnfs server jars (OLD, NEW) on copies of the same tree and runs org.tcnfs.jmh.workload.ReadLoop (jmh) against
# each in turn, ROUNDS times, interleaved: LOOKUP, GETATTR, ACCESS, READDIR and READ compounds, each shape for
# --seconds, reporting compounds/s, the server's CPU time per compound (utime + stime of its process) and the bytes
# it allocated per compound (its metrics endpoint). CPU and allocation per compound depend far less on other load
# on the machine than the rate does. Lines go to OUTDIR/ab.txt; scripts/bench-readloop-table.py makes the table.
# usage: scripts/bench-readloop.sh OLD_JAR NEW_JAR OUTDIR ROUNDS [ReadLoop options, e.g. --seconds 3]
#   env: TREE_TAR (default $BUILD/fuse-bench/tree.tar, see "The unmodified client"), BENCH_DIR, TCNFS_BUILD_SUFFIX
OLD=$1; NEW=$2; OUT=$3; ROUNDS=$4; shift 4
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$HOME/build}; TREE=${TREE_TAR:-$BUILD/fuse-bench/tree.tar}
BENCH_JAR=$ROOT/jmh/target${TCNFS_BUILD_SUFFIX:-}/benchmarks.jar
mkdir -p $OUT
W=$(mktemp -d ${BENCH_DIR:-/mnt/tcnfs-xfs}/readloop-XXXX)
PIDS=()
for t in old new; do
  mkdir -p $W/$t-data $W/$t-state
  tar -C $W/$t-data -xf $TREE
  JAR=$OLD; [ $t = new ] && JAR=$NEW
  java -Xmx512m -jar $JAR --port 0 --port-file $W/$t.port --data $W/$t-data --data-options rw,no_root_squash --state $W/$t-state --grace 0 --metrics-port 0 --metrics-port-file $W/$t.mport > $OUT/$t-server.log 2>&1 &
  PIDS+=($!); eval "PID_$t=$!"
done
for i in $(seq 1 600); do [ -s $W/old.port ] && [ -s $W/new.port ] && [ -s $W/new.mport ] && [ -s $W/old.mport ] && break; sleep 0.2; done
for r in $(seq 1 $ROUNDS); do
  for t in old new; do
    eval "P=\$PID_$t"
    java -cp $BENCH_JAR org.tcnfs.jmh.workload.ReadLoop --port $(cat $W/$t.port) --dir tree --pid $P --metrics-port $(cat $W/$t.mport) "$@" | grep round | sed "s/^round 1/$t r$r/" | tee -a $OUT/ab.txt
  done
done
for t in old new; do curl -s http://127.0.0.1:$(cat $W/$t.mport)/metrics > $OUT/$t-metrics.txt; done
kill ${PIDS[@]}; wait
rm -rf $W
