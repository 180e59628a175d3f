#!/bin/bash
# Flushes per step of an unmodified client (issue 16 goal 2, docs/benchmarks.md "Issue 16 goal 2: what the one-op
# compounds of an unmodified client still pay"): one server (SERVER_JAR, export OPTIONS, e.g.
# rw,no_root_squash,txn=always), mounted through fuse-nfs over libnfs 5.0.3 (NFSv4.0, one operation per compound,
# built as docs/benchmarks.md "The unmodified client" says); a seeded tree of FILES files (1-16 KiB) in DIRS
# directories; steps untar, chmod -R go-w, cp -R, rm -rf (of both trees), each under its own
# `strace -f -c -e trace=fsync,fdatasync` of the server, with the server's metrics scraped after each step.
# Prints per step: seconds, the server's CPU seconds (user + system), fsyncs (files, directories), fdatasyncs (LMDB: two per durable commit), and the deltas
# of tcnfs_txn_commits_total, tcnfs_txn_light_total and the REMOVE/SETATTR/CREATE/OPEN/WRITE counts; keeps
# OUTDIR/strace-STEP.txt, OUTDIR/metrics-STEP.txt and the server log (TRACE of org.tcnfs.txn.TransactionSteps:
# "full path: <why>" per transaction that is not light).
# usage: scripts/bench-txn-ops.sh OUTDIR SERVER_JAR OPTIONS   (env: FUSE_NFS, BENCH_DIR, FILES, DIRS)
set -u
OUT=$1; JAR=$2; OPTS=$3
BUILD_DIR=${BUILD:-/work/build}; FUSE=${FUSE_NFS:-$BUILD_DIR/fuse-nfs/fuse-nfs-bin}
FILES=${FILES:-300}; DIRS=${DIRS:-30}
DIR=${BENCH_DIR:-/mnt/tcnfs-xfs}
. "$(dirname "$0")/bench-lib.sh"   # the server stopped and the work directory removed on exit
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd); bench_workdir txn-ops; W=$WORK
BENCH_CLEANUP_HOOKS+=('mountpoint -q "$W/mnt" && { umount "$W/mnt" 2>/dev/null || umount -l "$W/mnt"; }'
  '[ -n "${SPID:-}" ] && kill -INT $SPID 2>/dev/null')
bench_make_tree_tar "$W" "$FILES" "$DIRS"   # $W/tree.tar
cat >"$W/logback.xml" <<'XML'
<configuration>
  <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
    <target>System.err</target>
    <encoder><pattern>%logger{24} %X{txn:-} - %msg%n</pattern></encoder>
  </appender>
  <logger name="org.tcnfs.txn.TransactionSteps" level="TRACE"/>
  <root level="WARN"><appender-ref ref="STDERR"/></root>
</configuration>
XML
SERVER_JAR=$JAR BENCH_DATA_OPTIONS=$OPTS bench_start_tcnfs "$W/s" "$OUT/server.log" -Xmx512m \
  -Dlogback.configurationFile="$W/logback.xml"
M=$W/mnt; mkdir -p "$M"
"$FUSE" -n "nfs://127.0.0.1/?version=4&nfsport=$TCNFS_PORT" -m "$M" >"$OUT/fuse.log" 2>&1 &
for _ in $(seq 1 50); do mountpoint -q "$M" && break; sleep 0.1; done
metrics() { curl -s "http://127.0.0.1:$TCNFS_MPORT/metrics" | grep -E '^tcnfs_(txn_commits|txn_light|ops)_total' >"$OUT/metrics-$1.txt"; }
cpu() { bench_cpu_ticks "$TCNFS_PID"; }   # the server's user + system CPU, in clock ticks
step() { # name command...
  local name=$1; shift
  strace -f -c -e trace=fsync,fdatasync -o "$OUT/strace-$name.txt" -p "$TCNFS_PID" 2>/dev/null & SPID=$!
  sleep 1
  local t0=$EPOCHREALTIME c0; c0=$(cpu)
  "$@" || echo "$name failed" >&2
  echo "$name $(python3 -c "print(round($EPOCHREALTIME - $t0, 2))")" >>"$OUT/seconds.txt"
  echo "$name $(( $(cpu) - c0 ))" >>"$OUT/cpu-ticks.txt"
  kill -INT $SPID; wait $SPID 2>/dev/null; SPID=
  metrics "$name"
}
echo "load: $(uptime)" | tee "$OUT/load.txt"
: >"$OUT/seconds.txt"; : >"$OUT/cpu-ticks.txt"
metrics start
mkdir -p "$M/r"
step untar tar --no-same-owner -xf "$W/tree.tar" -C "$M/r"
step chmod-R chmod -R go-w "$M/r/tree"
step cp-R cp -R "$M/r/tree" "$M/r/copy"
step rm-rf rm -rf "$M/r"
umount "$M"
echo "load after: $(uptime)" | tee -a "$OUT/load.txt"
python3 - "$OUT" <<'PY'
import sys, re
out = sys.argv[1]
def metrics(name):
    m = {}
    for line in open(f'{out}/metrics-{name}.txt'):
        k, v = line.rsplit(' ', 1); m[k] = float(v)
    return m
def calls(name):
    c = {}
    for line in open(f'{out}/strace-{name}.txt'):
        f = line.split()
        if f and f[-1] in ('fsync', 'fdatasync'):
            c[f[-1]] = int(f[3])
    return c
secs = dict(l.split() for l in open(f'{out}/seconds.txt'))
import os
tick = os.sysconf('SC_CLK_TCK')
cpu = {k: int(v) / tick for k, v in (l.split() for l in open(f'{out}/cpu-ticks.txt'))}
ops = ['OPEN', 'WRITE', 'SETATTR', 'CREATE', 'REMOVE']
print('| step | seconds | server CPU s | fsync | fdatasync | txn commits | light | ' + ' | '.join(ops) + ' |')
print('|---|' + '---:|' * (6 + len(ops)))
prev = metrics('start')
for s in ['untar', 'chmod-R', 'cp-R', 'rm-rf']:
    m, c = metrics(s), calls(s)
    d = lambda k: int(m.get(k, 0) - prev.get(k, 0))
    opn = [sum(int(m[k] - prev.get(k, 0)) for k in m if k.startswith('tcnfs_ops_total{op="%s"' % o)) for o in ops]
    print('| %s | %.2f | %.2f | %d | %d | %d | %d | %s |' % (s, float(secs[s]), cpu[s], c.get('fsync', 0), c.get('fdatasync', 0),
          d('tcnfs_txn_commits_total'), d('tcnfs_txn_light_total'), ' | '.join(map(str, opn))))
    prev = m
PY
grep -o 'full path: .*' "$OUT/server.log" | sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn | head -20
