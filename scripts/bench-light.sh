#!/bin/bash
# The light path of transactions (issue 16, docs/benchmarks.md "The light path under txn=always"): fuse-nfs over
# libnfs 5.0.3 (NFSv4.0, one operation per compound, built as docs/benchmarks.md "The unmodified client" says)
# against an OLD and a NEW server jar, each with a plain export and a txn=always export (four servers), ROUNDS
# rounds, targets interleaved per round. Per round and target: mount, untar a small seeded tree (FILES files in
# DIRS directories, 1-16 KiB; made once with python), chmod -R, ls -lR, rm -rf, unmount. Every server runs under
# `strace -f -c -e trace=fsync,fdatasync` for the whole run, so OUTDIR/strace-TARGET.txt has its fsyncs (files
# and directories) and fdatasyncs (LMDB commits), which do not depend on the machine's load.
# Appends round,target,step,seconds,rc to OUTDIR/light.csv; prints the medians and the sync counts at the end.
# usage: scripts/bench-light.sh OUTDIR ROUNDS NEW_SERVER_JAR OLD_SERVER_JAR   (env: FUSE_NFS, BENCH_DIR, FILES, DIRS)
set -u
OUT=$1; ROUNDS=$2; NEWJAR=$3; OLDJAR=$4
BUILD_DIR=${BUILD:-/work/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}
FILES=${FILES:-300}; DIRS=${DIRS:-30}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
. "$(dirname "$0")/bench-lib.sh"   # servers and traces stopped, the work directory removed on exit
mkdir -p $OUT; OUT=$(cd $OUT && pwd); bench_workdir light-bench; W=$WORK
# fuse mounts left by a failure or Ctrl-C are unmounted before the servers stop
BENCH_CLEANUP_HOOKS+=('for m in "$W"/mnt-*; do mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }; done')
bench_make_tree_tar "$W" "$FILES" "$DIRS"   # $W/tree.tar
TRACES=()
declare -A PORT MPORT
start_tcnfs() { # name jar options
  SERVER_JAR=$2 BENCH_DATA_OPTIONS=$3 bench_start_tcnfs $W/$1 $OUT/$1.log -Xmx512m
  PORT[$1]=$TCNFS_PORT; MPORT[$1]=$TCNFS_MPORT
  strace -f -c -e trace=fsync,fdatasync -o $OUT/strace-$1.txt -p $TCNFS_PID 2>/dev/null &
  TRACES+=($!)
}
start_tcnfs new $NEWJAR rw,no_root_squash
start_tcnfs new-always $NEWJAR rw,no_root_squash,txn=always
start_tcnfs old $OLDJAR rw,no_root_squash
start_tcnfs old-always $OLDJAR rw,no_root_squash,txn=always
TARGETS="new new-always old old-always"
sleep 2
url() { echo "nfs://127.0.0.1/?version=4&nfsport=${PORT[$1]}"; }
step() { bench_step $OUT/light.csv "$@"; }   # round target step command...
echo "load: $(uptime)" | tee -a $OUT/load.txt
for r in $(seq 1 $ROUNDS); do
  for t in $TARGETS; do
    M=$W/mnt-$t; mkdir -p $M
    $FUSE -n "$(url $t)" -m $M > $OUT/fuse-$t.log 2>&1 &
    FPID=$!
    for k in $(seq 1 50); do mountpoint -q $M && break; sleep 0.1; done
    mkdir -p $M/r$r
    step $r $t untar tar --no-same-owner -xf $W/tree.tar -C $M/r$r
    step $r $t chmod-R chmod -R go-w $M/r$r/tree
    step $r $t ls-lR ls -lR $M/r$r
    step $r $t rm-rf rm -rf $M/r$r
    umount $M; wait $FPID 2>/dev/null
  done
  echo "load after round $r: $(uptime)" | tee -a $OUT/load.txt
done
for t in $TARGETS; do
  echo "$t $(curl -s http://127.0.0.1:${MPORT[$t]}/metrics | grep -E '^tcnfs_txn_(commits|light)_total' | tr '\n' ' ')" \
      | tee -a $OUT/metrics.txt
done
kill -INT ${TRACES[@]} 2>/dev/null; sleep 2
python3 - $OUT <<'PY'
import csv, statistics, sys, collections, re
out = sys.argv[1]; d = collections.defaultdict(list)
for line in open(out + '/light.csv'):
    r, t, s, sec, rc = line.strip().split(',')
    d[(t, s)].append(float(sec))
targets = ['new', 'new-always', 'old', 'old-always']
print('| step | ' + ' | '.join(targets) + ' | new-always / new | old-always / old |')
print('|---|' + '---:|' * len(targets) + '---:|---:|')
for s in ['untar', 'chmod-R', 'ls-lR', 'rm-rf']:
    med = {t: statistics.median(d[(t, s)]) for t in targets if d.get((t, s))}
    cells = ['%.2f (%s)' % (med[t], ', '.join('%.2f' % x for x in d[(t, s)])) if t in med else '-' for t in targets]
    rt = lambda a, b: '%.2fx' % (med[a] / med[b]) if a in med and b in med and med[b] > 0 else '-'
    print('| %s | %s | %s | %s |' % (s, ' | '.join(cells), rt('new-always', 'new'), rt('old-always', 'old')))
print()
for t in targets:
    counts = {}
    try:
        for line in open(out + '/strace-' + t + '.txt'):
            m = re.match(r'\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$', line)
            if m: counts[m.group(2)] = int(m.group(1))
    except FileNotFoundError:
        pass
    print('%s: fsync %s, fdatasync %s' % (t, counts.get('fsync', 0), counts.get('fdatasync', 0)))
PY
