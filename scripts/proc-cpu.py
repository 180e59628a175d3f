#!/usr/bin/env python3
"""CPU seconds a process has used so far, split by thread kind, from /proc (load-independent, no attach):
scripts/proc-cpu.py PID  ->  "total jit gc other" (seconds, user + system). jit: the JVM's C1/C2 compiler threads,
gc: its GC threads ("GC Thread#", "G1 ...", Parallel, ZGC, Shenandoah; the serial collector runs on the "VM Thread"
and counts as other), other: the rest, including threads that have already exited (the kernel folds their time into the process). For a non-JVM process jit and gc are 0."""
import os, sys
pid = sys.argv[1]
hz = os.sysconf('SC_CLK_TCK')
def ticks(path):
    s = open(path).read()
    comm = s[s.index('(') + 1:s.rindex(')')]
    f = s[s.rindex(')') + 2:].split()
    return comm, int(f[11]) + int(f[12])   # utime, stime (fields 14 and 15)
_, total = ticks('/proc/%s/stat' % pid)
jit = gc = 0
for tid in os.listdir('/proc/%s/task' % pid):
    try:
        comm, t = ticks('/proc/%s/task/%s/stat' % (pid, tid))
    except (FileNotFoundError, ProcessLookupError, ValueError):
        continue
    if 'CompilerThre' in comm or comm.startswith('C1 ') or comm.startswith('C2 '):
        jit += t
    elif comm.startswith(('GC ', 'G1 ', 'ZGC', 'Z ', 'Par', 'Shenandoah')):
        gc += t
print('%.2f %.2f %.2f %.2f' % (total / hz, jit / hz, gc / hz, (total - jit - gc) / hz))
