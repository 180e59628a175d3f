#!/bin/bash
# One tcnfs server (an `async` export) warmed up, then measured, through fuse-nfs over libnfs (docs/benchmarks.md,
# "per-compound cost of an unmodified client, warm and cold"): two untimed rounds of untar, cp -R and rm -rf of
# TREE_TAR, then a measured round of the same with the server's CPU seconds (scripts/proc-cpu.py: total, JIT, GC,
# the rest), its thread context switches during the untar, and its metrics before and after the round
# (tcnfs_compounds_total, tcnfs_rpc_inline_compounds_total, tcnfs_op_seconds, tcnfs_handle_table_(cached_)reads) in
# OUTDIR. PROFILE=1 records the measured round with JFR (OUTDIR/warm.jfr, settings=profile, deep stacks;
# JFR_EVENT_SETTINGS overrides event settings, e.g. 'jdk.ExecutionSample#period=1ms').
# usage: scripts/bench-fuse-warm.sh OUTDIR [SERVER_JAR]   (env: BUILD (where fuse-nfs was built), FUSE_NFS, TREE_TAR,
#        BENCH_DIR, TCNFS_JVM_OPTS: extra JVM options of the server, JAVA)
OUT=$1; JAR=${2:-$(dirname "$0")/../server/target/tcnfs-server.jar}
BUILD_DIR=${BUILD:-$HOME/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}; TREE=${TREE_TAR:-$BUILD_DIR/fuse-bench/tree.tar}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
. "$(dirname "$0")/bench-lib.sh"   # server stopped and the work directory removed on exit
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd); bench_workdir fuse-warm; W=$WORK
BENCH_CLEANUP_HOOKS+=('mountpoint -q "$W/mnt" && { umount "$W/mnt" 2>/dev/null || umount -l "$W/mnt"; }')
JFR=(); [ "${PROFILE:-0}" = 1 ] && JFR=(-XX:FlightRecorderOptions:stackdepth=256)
SERVER_JAR=$JAR BENCH_DATA_OPTIONS=rw,no_root_squash,async bench_start_tcnfs $W/s $OUT/server.log -Xmx512m "${JFR[@]}" ${TCNFS_JVM_OPTS:-}
mkdir -p $W/mnt
$FUSE -n "nfs://127.0.0.1/?version=4&nfsport=$TCNFS_PORT" -m $W/mnt > $OUT/fuse.log 2>&1 &
for _ in $(seq 1 50); do mountpoint -q $W/mnt && break; sleep 0.1; done
round() { # name: untar, cp -R, rm -rf
  mkdir $W/mnt/$1
  tar --no-same-owner --no-same-permissions -xf $TREE -C $W/mnt/$1 && cp -R $W/mnt/$1/tree $W/mnt/$1/copy && rm -rf $W/mnt/$1
}
round w1; round w2
cpu() { python3 "$BENCH_ROOT/scripts/proc-cpu.py" $TCNFS_PID; }
switches() { cat /proc/$TCNFS_PID/task/*/status 2>/dev/null | awk '/^voluntary_ctxt/ { v += $2 } /^nonvoluntary_ctxt/ { n += $2 } END { print v, n }'; }
metrics() { curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" | grep -E '^tcnfs_(rpc_inline|compounds_total|op_seconds_(count|sum)|handle_table_(cached_)?reads)' > $OUT/metrics-$1.txt; }
metrics before
[ "${PROFILE:-0}" = 1 ] && jcmd $TCNFS_PID JFR.start name=warm settings=profile ${JFR_EVENT_SETTINGS:-} filename=$OUT/warm.jfr > /dev/null
c0=$(cpu); x0=$(switches); t0=$(date +%s.%N)
mkdir $W/mnt/r; tar --no-same-owner --no-same-permissions -xf $TREE -C $W/mnt/r
c1=$(cpu); x1=$(switches); t1=$(date +%s.%N)
cp -R $W/mnt/r/tree $W/mnt/r/copy; c2=$(cpu); t2=$(date +%s.%N)
rm -rf $W/mnt/r; c3=$(cpu); t3=$(date +%s.%N)
[ "${PROFILE:-0}" = 1 ] && jcmd $TCNFS_PID JFR.stop name=warm > /dev/null
metrics after
python3 - "$c0" "$c1" "$c2" "$c3" "$t0" "$t1" "$t2" "$t3" "$x0" "$x1" $OUT/metrics-before.txt $OUT/metrics-after.txt <<'PY' | tee $OUT/summary.txt
import sys
c = [list(map(float, a.split())) for a in sys.argv[1:5]]; t = list(map(float, sys.argv[5:9]))
x0, x1 = (list(map(int, a.split())) for a in sys.argv[9:11])
def m(path):
    d = {}
    for line in open(path):
        k, v = line.rsplit(' ', 1); d[k] = float(v)
    return d
b, a = m(sys.argv[11]), m(sys.argv[12])
comp = sum(v - b.get(k, 0) for k, v in a.items() if k.startswith('tcnfs_compounds_total'))
inl = a.get('tcnfs_rpc_inline_compounds_total', 0) - b.get('tcnfs_rpc_inline_compounds_total', 0)
for i, step in enumerate(['untar', 'cp-R', 'rm-rf']):
    d = [c[i + 1][j] - c[i][j] for j in range(4)]
    print('%-6s wall %6.2f s  server CPU %5.2f s (jit %4.2f, gc %4.2f, rest %5.2f)' % (step, t[i + 1] - t[i], *d))
print('compounds %d, run inline %d (%.1f %%)' % (comp, inl, 100 * inl / max(comp, 1)))
print('untar: voluntary context switches %d, involuntary %d' % (x1[0] - x0[0], x1[1] - x0[1]))
PY
uptime | tee -a $OUT/summary.txt
