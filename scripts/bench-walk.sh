#!/bin/bash
# The kernel's and the server's work for path walks and handle resolutions (issue 16): for a tcnfs jar ("new") and
# optionally an older one ("old"), both started on 127.0.0.1 with an `async` export holding w0/.../w{N-2}/f, the
# server's system calls per COMPOUND (strace -f -c), the names its statx/openat2/openat calls made the kernel look up
# per COMPOUND (strace -f, scripts/strace-names.py), both load-independent, and its CPU per COMPOUND (/proc ticks of
# user and system time), and the handle-table reads per COMPOUND (tcnfs_handle_table_reads_total, where the server has
# that meter), for the three kinds of scripts/walk-probe.py: walk (PUTROOTFH, N LOOKUPs, GETFH, GETATTR),
# putfh (PUTFH of the deep file, GETATTR), steps (PUTFH, one LOOKUP, GETFH, GETATTR). CPU rounds interleave the
# servers, in the other order every second round.
#
# With --alloc N (N > 0), also the bytes the server allocated per COMPOUND over N compounds
# (jvm_gc_memory_allocated_bytes_total, which moves at each young GC: N large enough for many of them).
#
# Usage: scripts/bench-walk.sh --jar JAR [--old JAR] [--walk N] [--calls N] [--rounds R] [--strace N] [--alloc N]
#        [--dir DIR]
set -u
DIR=/mnt/tcnfs-xfs
[ -d "$DIR" ] || DIR=/tmp
OLD= JAR= WALK=10 CALLS=20000 ROUNDS=2 STRACE=2000 ALLOC=0
. "$(dirname "$0")/bench-lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    --old) OLD=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --walk) WALK=$2; shift 2 ;;
    --calls) CALLS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --strace) STRACE=$2; shift 2 ;;
    --alloc) ALLOC=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_require "$JAR" ${OLD:+"$OLD"}
BENCH_DATA_OPTIONS=rw,no_root_squash,async
bench_workdir walk
TPATH=
for i in $(seq 0 $((WALK - 2))); do TPATH=$TPATH/w$i; done
TPATH=$TPATH/f
PROBE="python3 $BENCH_ROOT/scripts/walk-probe.py"
declare -A PID PORT MPORT
NAMES="new ${OLD:+old}"
for name in $NAMES; do
  jar=$JAR
  [ "$name" = old ] && jar=$OLD
  mkdir -p "$WORK/$name/data$(dirname "$TPATH")"
  echo walk >"$WORK/$name/data$TPATH"
  SERVER_JAR=$jar bench_start_tcnfs "$WORK/$name" "$WORK/$name.log" -Xmx512m
  PID[$name]=$TCNFS_PID PORT[$name]=$TCNFS_PORT MPORT[$name]=$TCNFS_MPORT
done
KINDS=${KINDS:-walk putfh steps}
# ticks PID: the process's user and system clock ticks (fields 14 and 15 of /proc/PID/stat)
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12, $13 }'; }
# per_compound "USER SYS" "USER SYS": microseconds of CPU per compound between the two, user and system
per_compound() {
  python3 -c "import os, sys; hz = os.sysconf('SC_CLK_TCK'); b = sys.argv[1].split(); a = sys.argv[2].split()
u, s = ((int(a[i]) - int(b[i])) / hz / $CALLS * 1e6 for i in (0, 1))
print('cpu %.1f us/compound (user %.1f, system %.1f)' % (u + s, u, s))" "$1" "$2"
}
for name in $NAMES; do
  for kind in $KINDS; do $PROBE "${PORT[$name]}" "$TPATH" "$kind" "$CALLS" >/dev/null; done  # warm-up (JIT)
done
uptime
echo "== system calls per COMPOUND (strace -f -c over $STRACE compounds; calls >= 0.05 per compound)"
for name in $NAMES; do
  for kind in $KINDS; do
    out=$WORK/$name-$kind.strace
    strace -f -c -o "$out" -p "${PID[$name]}" 2>/dev/null &
    tracer=$!
    sleep 2
    $PROBE "${PORT[$name]}" "$TPATH" "$kind" "$STRACE" >/dev/null
    sleep 0.5
    kill -INT "$tracer"
    wait "$tracer" 2>/dev/null
    # columns: % time, seconds, usecs/call, calls, [errors,] syscall
    echo "$name $kind: $(awk -v n="$STRACE" '$4 ~ /^[0-9]+$/ && $NF != "total" && $4 / n >= 0.05 {
        printf "%s %.2f  ", $NF, $4 / n }' "$out")"
  done
done
echo "== names the kernel looked up per COMPOUND (strace -f of statx, openat2, openat over $((STRACE / 10)) compounds)"
for name in $NAMES; do
  for kind in $KINDS; do
    out=$WORK/$name-$kind.names
    strace -f -s 4096 -e trace=statx,openat2,openat,newfstatat -o "$out" -p "${PID[$name]}" 2>/dev/null &
    tracer=$!
    sleep 2
    $PROBE "${PORT[$name]}" "$TPATH" "$kind" $((STRACE / 10)) >/dev/null
    sleep 0.5
    kill -INT "$tracer"
    wait "$tracer" 2>/dev/null
    echo "$name $kind: $(python3 "$BENCH_ROOT/scripts/strace-names.py" "$out" $((STRACE / 10)))"
  done
done
# meter NAME METER: the server's METER, or nothing when it has no such meter
meter() {
  curl -s "http://127.0.0.1:${MPORT[$1]}/metrics" | awk -v m="$2" '$1 == m { print $2 }'
}
echo "== handle-table reads per COMPOUND over $STRACE compounds: made (tcnfs_handle_table_reads_total), answered by" \
  "the rows cache (tcnfs_handle_table_cached_reads_total; their sum is what the server read without it)"
for name in $NAMES; do
  for kind in $KINDS; do
    reads=$(meter "$name" tcnfs_handle_table_reads_total)
    [ -n "$reads" ] || { echo "$name $kind: no such meter"; continue; }
    cached=$(meter "$name" tcnfs_handle_table_cached_reads_total)
    $PROBE "${PORT[$name]}" "$TPATH" "$kind" "$STRACE" >/dev/null
    echo "$name $kind: $(python3 -c "import sys; a = [float(x) for x in sys.argv[1:]]
print('made %.2f, cached %.2f' % ((a[1] - a[0]) / $STRACE, (a[3] - a[2]) / $STRACE))" \
        "$reads" "$(meter "$name" tcnfs_handle_table_reads_total)" "$cached" \
        "$(meter "$name" tcnfs_handle_table_cached_reads_total)")"
  done
done
if [ "$ALLOC" -gt 0 ]; then
  echo "== bytes allocated per COMPOUND (jvm_gc_memory_allocated_bytes_total over $ALLOC compounds)"
  for name in $NAMES; do
    for kind in $KINDS; do
      before=$(meter "$name" jvm_gc_memory_allocated_bytes_total)
      $PROBE "${PORT[$name]}" "$TPATH" "$kind" "$ALLOC" >/dev/null
      echo "$name $kind: $(python3 -c "import sys; print('%.0f' % ((float(sys.argv[2]) - float(sys.argv[1])) / $ALLOC))" \
          "$before" "$(meter "$name" jvm_gc_memory_allocated_bytes_total)")"
    done
  done
fi
echo "== server CPU per COMPOUND (us, /proc ticks over $CALLS compounds; round by round)"
for round in $(seq 1 "$ROUNDS"); do
  order=$NAMES
  [ $((round % 2)) = 0 ] && order=$(echo "$NAMES" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
  for name in $order; do
    for kind in $KINDS; do
      before=$(ticks "${PID[$name]}")
      rtt=$($PROBE "${PORT[$name]}" "$TPATH" "$kind" "$CALLS")
      after=$(ticks "${PID[$name]}")
      echo "round $round $name $kind: $(per_compound "$before" "$after"); $rtt"
    done
  done
done
uptime
