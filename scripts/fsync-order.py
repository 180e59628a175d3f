#!/usr/bin/env python3
"""What a plain one-file compound's two fsyncs cost, by their order (issue 16, docs/benchmarks.md "One file per
compound"): create a file, write 1 KiB, then fsync the file and its directory
  par   - both at once (the directory's fsync on a second, long-lived thread: how FsyncPool ran them before),
  seq   - the file's fsync, then the directory's on the same thread (how TxnBuffer.wave runs them now),
  dirf  - the directory's, then the file's,
  file  - the file's alone (no durable name: what a server that skips the directory fsync pays).
The variants take turns, N times each, in a fresh directory under DIR. Prints microseconds per file.
usage: scripts/fsync-order.py DIR [N]"""
import os
import queue
import sys
import threading
import time


def main():
    base = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    d = os.path.join(base, 'fsync-order-%d' % os.getpid())
    os.makedirs(d)
    data = b'x' * 1024
    todo, done = queue.Queue(), queue.Queue()

    def worker():
        while True:
            fd = todo.get()
            os.fsync(fd)
            done.put(fd)

    threading.Thread(target=worker, daemon=True).start()

    def one(mode, i):
        fd = os.open(os.path.join(d, '%s%d' % (mode, i)), os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
        os.write(fd, data)
        dfd = os.open(d, os.O_RDONLY)
        if mode == 'par':
            todo.put(dfd)
            os.fsync(fd)
            done.get()
        elif mode == 'seq':
            os.fsync(fd)
            os.fsync(dfd)
        elif mode == 'dirf':
            os.fsync(dfd)
            os.fsync(fd)
        else:
            os.fsync(fd)
        os.close(fd)
        os.close(dfd)

    modes = ['par', 'seq', 'dirf', 'file']
    total = dict.fromkeys(modes, 0.0)
    try:
        for i in range(n):
            for m in modes:
                t0 = time.perf_counter()
                one(m, i)
                total[m] += time.perf_counter() - t0
    finally:
        for name in os.listdir(d):
            os.unlink(os.path.join(d, name))
        os.rmdir(d)
    print(' '.join('%s=%dus' % (m, round(total[m] / n * 1e6)) for m in modes), 'load=%.2f' % os.getloadavg()[0])


if __name__ == '__main__':
    main()
