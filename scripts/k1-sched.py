#!/usr/bin/env python3
"""Splits one client's k=1 compounds by thread and wait (issue 16, branch h-handoff), from `perf script` output of the
server's raw_syscalls and of every CPU's sched_switch and sched_wakeup (scripts/k1-sched.sh records them).

A compound starts at a network (selector) thread's read of its record; its hand-off ends when the worker that
thread woke gets a core, and the compound ends at that worker's reply write. Between, the worker's time off its core
is summed by the system call it was in (or "preempted" when it was still runnable). Last, each worker fsync (the
file's) is paired with the row journal's fdatasync of the same compound (on a pool thread, or on the worker when it
took it back): how often, and how long, the journal's flush began only after the file's fsync had ended.

Usage: scripts/k1-sched.py perf.txt
"""
import bisect
import re
import statistics as st
import sys
from collections import defaultdict

LINE = re.compile(r'^\s*(.*?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)$')
NAMES = {0: 'read', 1: 'write', 20: 'writev', 74: 'fsync', 75: 'fdatasync', 202: 'futex', 18: 'pwrite',
         257: 'openat', 437: 'openat2', 3: 'close', 87: 'unlink', 263: 'unlinkat', 265: 'linkat'}
TOTAL = 'read -> reply write'


def events(path):
    out, comm_of = [], {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            comm, tid, _, t, e, rest = m.groups()
            comm_of[int(tid)] = comm
            out.append((float(t), int(tid), e, rest))
    out.sort(key=lambda x: x[0])
    return out, comm_of


def phases(ev, comm_of):
    """Per compound: a dict of phase -> seconds."""
    is_req = lambda tid: 'request' in comm_of.get(tid, '')
    is_sel = lambda tid: 'Sele' in comm_of.get(tid, '')
    in_sys, start, cur, out, last_read, woken, done = {}, {}, {}, {}, {}, {}, []
    for t, tid, e, rest in ev:
        if e == 'raw_syscalls:sys_enter':
            in_sys[tid] = int(rest.split()[1])
        elif e == 'raw_syscalls:sys_exit':
            nr, ret = int(rest.split()[1]), int(rest.split('=')[1])
            in_sys.pop(tid, None)
            if nr == 0 and ret > 0 and is_sel(tid):
                last_read[tid] = t
            if nr in (1, 20) and ret > 0 and is_req(tid) and tid in start:
                c = cur.pop(tid)
                c[TOTAL] = t - start.pop(tid)
                done.append(c)
        elif e == 'sched:sched_wakeup':
            w = int(re.search(r'pid=(\d+)', rest).group(1))
            if is_req(w) and is_sel(tid) and tid in last_read and w not in start:
                woken[w] = (last_read.pop(tid), t)
        elif e == 'sched:sched_switch':
            m = re.search(r'prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) ==> next_comm=.*? next_pid=(\d+)', rest)
            prev, state, nxt = int(m.group(1)), m.group(2), int(m.group(3))
            if is_req(prev) and prev in start:
                out[prev] = (t, state, in_sys.get(prev))
            if nxt in woken:
                read_at, wake_at = woken.pop(nxt)
                start[nxt], cur[nxt] = read_at, defaultdict(float)
                cur[nxt]['network thread: read -> wake-up call'] += wake_at - read_at
                cur[nxt]['hand-off: wake-up -> worker on a core'] += t - wake_at
            elif nxt in start and nxt in out:
                at, state, nr = out.pop(nxt)
                cur[nxt]['preempted' if state.startswith('R') else f'off its core in {NAMES.get(nr, nr)}'] += t - at
    return done


def late_journal_flushes(ev, comm_of):
    ent, fsyncs, flushes = {}, [], []
    for t, tid, e, rest in ev:
        if e == 'raw_syscalls:sys_enter':
            ent[tid] = t
        elif e == 'raw_syscalls:sys_exit' and tid in ent:
            nr, t0, comm = int(rest.split()[1]), ent.pop(tid), comm_of.get(tid, '')
            if nr == 74 and 'request' in comm:
                fsyncs.append((t0, t))
            elif nr == 75 and ('request' in comm or 'fsync' in comm):
                flushes.append((t0, t))
    starts = [a for a, _ in flushes]
    paired, late = 0, []
    for a, b in fsyncs:
        i = bisect.bisect_left(starts, a - 0.002)
        near = [flushes[j] for j in range(i, min(i + 4, len(flushes))) if abs(flushes[j][0] - a) < 0.02]
        if near:
            paired += 1
            began = min(near, key=lambda x: abs(x[0] - a))[0]
            if began > b:
                late.append((began - b) * 1e6)
    return paired, late


def main():
    ev, comm_of = events(sys.argv[1])
    per = phases(ev, comm_of)
    if not per:
        sys.exit('no compound found')
    total = [c[TOTAL] * 1e6 for c in per]
    print(f'compounds: {len(per)}; {TOTAL}: median {st.median(total):.0f} us, mean {st.mean(total):.0f} us')
    keys = {k for c in per for k in c} - {TOTAL}
    off = [sum(v for k, v in c.items() if k != TOTAL) * 1e6 for c in per]
    rows = [(k, [c.get(k, 0) * 1e6 for c in per]) for k in keys]
    rows.append(('worker on its core (the rest)', [a - b for a, b in zip(total, off)]))
    for k, v in sorted(rows, key=lambda r: -sum(r[1])):
        print(f'  {k:40s} median {st.median(v):8.1f}  mean {st.mean(v):8.1f} us  ({100 * st.mean(v) / st.mean(total):4.1f} % of the mean)')
    paired, late = late_journal_flushes(ev, comm_of)
    if paired:
        print(f"journal flush began after the worker's file fsync ended: {len(late)} of {paired} compounds"
              + (f', by median {st.median(late):.0f} us, mean {st.mean(late):.0f} us' if late else ''))


if __name__ == '__main__':
    main()
