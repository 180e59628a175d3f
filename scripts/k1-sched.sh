#!/usr/bin/env bash
# Where one client's k=1 compounds wait, without strace (issue 16, branch h-handoff): runs scripts/bench-k1.sh
# (NO_STRACE=1) on SERVER_JAR and, during its measured run, records the server's system calls (perf, this process
# only) and every CPU's scheduler switches and wake-ups (perf -a, so the moments a server thread gets a core are
# seen), then splits each compound with scripts/k1-sched.py: the network thread's read, the hand-off to a worker,
# the worker's time off its core by system call, and whether the row journal's flush began after the file's fsync
# ended. Give the jar a path of its own (e.g. a copy under /tmp): the server's process is found by it.
#
# Usage: scripts/k1-sched.sh SERVER_JAR OUT_DIR [FILES [SIZE]]   (default 2000 files of 1K)
#   DRIVER_JAR=/work/wt/base14/jmh/target/benchmarks.jar scripts/k1-sched.sh /tmp/new.jar target/k1s-new
set -euo pipefail
JAR=$1; OUT=$2; FILES=${3:-2000}; SIZE=${4:-1K}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
NO_STRACE=1 "$HERE/bench-k1.sh" "$JAR" "$OUT" "$FILES" "$SIZE" >"$OUT/k1.txt" 2>&1 &
K1=$!
# bench-k1.sh writes threads-before.txt after its warm-up run, right before the measured one
while [ ! -s "$OUT/threads-before.txt" ]; do kill -0 $K1 2>/dev/null || { cat "$OUT/k1.txt"; exit 1; }; sleep 0.05; done
PID=$(pgrep -f -n "java .*-jar $JAR")
perf record -q -o "$OUT/sys.data" -m 1024 -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -p "$PID" 2>"$OUT/perf.err" &
P1=$!
perf record -q -a -o "$OUT/sched.data" -m 1024 -e sched:sched_switch -e sched:sched_wakeup 2>>"$OUT/perf.err" &
P2=$!
while [ ! -s "$OUT/threads-after.txt" ]; do kill -0 $K1 2>/dev/null || break; sleep 0.05; done
kill -INT $P1 $P2; wait $P1 || true; wait $P2 || true
wait $K1
for d in sys sched; do perf script -i "$OUT/$d.data" -F comm,tid,cpu,time,event,trace 2>/dev/null; done >"$OUT/perf.txt"
rm -f "$OUT/sys.data" "$OUT/sched.data"
grep -E 'driver|compound  |context|fsync_pool' "$OUT/k1.txt" || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$HERE/k1-sched.py" "$OUT/perf.txt"
