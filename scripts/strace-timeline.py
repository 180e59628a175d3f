#!/usr/bin/env python3
"""Splits the wall time of a tcnfs (or NFS-Ganesha) server's compounds, one client sending one call at a time, from
`strace -f -tt -T -o FILE -p PID` of the server (issue 16, branch h-k1; scripts/k1-timeline.sh records one).

Per request on the client's socket (the fd most requests are read from), from the network read that brought it to
the next one:
  handoff  the read's end -> the first event of the thread that writes the reply (its wake-up; 0 when one thread
           reads and runs the call, as NFS-Ganesha's do)
  cpu      that wake-up -> its first system call other than futex (decoding, planning, locking)
  calls    -> the first fsync or fdatasync of the request (any thread): the operations' system calls
  flush    -> the end of the last fsync or fdatasync
  tail     -> the reply's write (the wake-ups after the flushes, closing, encoding)
  reply    the reply's write itself (on loopback it runs the client's receive path)
  client   the reply written -> the next request read (the client's turn, the network thread's wake-up)
Prints medians and quartiles in microseconds (strace slows every system call: compare runs traced alike), the
request's system calls up to its reply (not counting futex, epoll and the socket reads), and the times the replying
thread parked (futex waits) between its wake-up and the reply: waits for another thread on the compound's path.

Usage: scripts/strace-timeline.py STRACE_FILE
"""
import collections
import re
import sys

LINE = re.compile(r'(\d+)\s+(\d\d):(\d\d):(\d\d\.\d+) (.*)')
DURATION = re.compile(r'<([\d.]+)>\s*$')
READ = re.compile(r'(?:read|recvfrom)\((\d+), "(?:\\200|[^"]*)')
# waiting and the network threads' own calls, not counted as the request's system calls
IDLE = ('futex', 'epoll_wait', 'epoll_ctl', 'read', 'recvfrom', 'restart_syscall', 'clock_gettime', 'gettid')


def events(path):
    pending = {}
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        tid, body = int(m.group(1)), m.group(5)
        t = int(m.group(2)) * 3600 + int(m.group(3)) * 60 + float(m.group(4))
        d = DURATION.search(body)
        if body.endswith('<unfinished ...>'):
            pending[tid] = (t, body)
            continue
        if body.startswith('<... '):
            start, first = pending.pop(tid, (t, body))
            name = body[5:].split(' ', 1)[0]
            yield dict(tid=tid, start=start, end=t, body=first if first else body, name=name, resumed=True)
            continue
        dur = float(d.group(1)) if d else 0.0
        yield dict(tid=tid, start=t, end=t + dur, body=body, name=body.split('(', 1)[0], resumed=False)


def main():
    ev = sorted(events(sys.argv[1]), key=lambda e: e['start'])
    reads = [e for e in ev if e['name'] in ('read', 'recvfrom') and READ.match(e['body'])]
    fds = collections.Counter(READ.match(e['body']).group(1) for e in reads)
    if not fds:
        sys.exit("no request read in " + sys.argv[1])
    fd = fds.most_common(1)[0][0]
    # a request is the first read of the socket after a reply was written on it
    writes = [e for e in ev if e['name'] in ('write', 'sendmsg', 'writev') and e['body'].startswith(
        (f'write({fd},', f'sendmsg({fd},', f'writev({fd},'))]
    starts = []
    wi = 0
    last_reply = -1.0
    for r in (e for e in reads if e['body'].startswith((f'read({fd},', f'recvfrom({fd},'))):
        if r['start'] > last_reply:
            starts.append(r)
            while wi < len(writes) and writes[wi]['start'] <= r['end']:
                wi += 1
            nxt = next((w for w in writes[wi:] if w['start'] > r['end']), None)
            last_reply = nxt['start'] if nxt else float('inf')
    rows = []
    for a, b in zip(starts, starts[1:]):
        t0, t1 = a['end'], b['end']
        reply = next((w for w in writes if t0 < w['start'] < t1), None)
        if reply is None:
            continue
        worker = reply['tid']
        mine = [e for e in ev if e['tid'] == worker and t0 <= e['end'] and e['start'] < reply['start']]
        wake = min((e['end'] for e in mine if e['resumed'] and e['name'] == 'futex' and e['end'] >= t0), default=t0)
        if worker == a['tid']:
            wake = t0
        first = min((e['start'] for e in mine if e['name'] != 'futex' and e['start'] >= wake), default=wake)
        flushes = [e for e in ev if e['name'] in ('fsync', 'fdatasync') and t0 < e['start'] < reply['start']]
        f0 = min((e['start'] for e in flushes), default=reply['start'])
        f1 = max((e['end'] for e in flushes), default=f0)
        calls = sum(1 for e in ev if t0 < e['start'] < reply['start'] and e['name'] not in IDLE)
        parks = sum(1 for e in mine if e['name'] == 'futex' and 'FUTEX_WAIT' in e['body'] and e['start'] > wake)
        rows.append(dict(handoff=wake - t0, cpu=first - wake, calls=f0 - first, flush=f1 - f0,
                         tail=reply['start'] - f1, reply=reply['end'] - reply['start'], client=t1 - reply['end'],
                         total=t1 - t0, syscalls=calls, parks=parks))
    if not rows:
        sys.exit("no request answered in " + sys.argv[1])
    print(f"{len(rows)} requests on fd {fd}; median (quartiles), microseconds")
    for k in rows[0]:
        v = sorted(r[k] for r in rows)
        n = len(v)
        if k in ('syscalls', 'parks'):
            print(f"  {k:8s} {v[n // 2]:8d}  (mean {sum(v) / n:.2f})")
        else:
            print(f"  {k:8s} {1e6 * v[n // 2]:8.0f}  ({1e6 * v[n // 4]:.0f}-{1e6 * v[3 * n // 4]:.0f})")


if __name__ == '__main__':
    main()
