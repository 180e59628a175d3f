#!/usr/bin/env python3
"""The flush floor of one new file per compound on a `sync` export (issue 16, the driver's degree k=1 row), without
the server: what the kernel and the disk make a compound wait for, by how its flushes are arranged.

Each round creates a file, writes 1 KiB and syncs it in the ways below, interleaved round by round (so load moves
them alike), and prints the median and 90th percentile microseconds per file of each:
  file-fsync             fsync of the file alone (what NFS-Ganesha does for a FILE_SYNC write)
  file+dir || 2 flushes  fsync of the file, then of its directory, while another thread writes a page of a
                         preallocated file and fdatasyncs it twice in a row (tcnfs today: a durable LMDB commit of the
                         handle row is two fdatasyncs of data.mdb, data pages then meta page)
  file+dir || 1 flush    the same with one write + fdatasync beside (a row journal of one flush per commit)
  file+dir               the file's and the directory's fsync alone

usage: scripts/flush-floor.py DIR [ROUNDS]   (DIR on the file system to measure, e.g. /mnt/tcnfs-xfs/floor; made and
       left with ROUNDS * 4 small files: remove it after)"""
import os
import statistics
import sys
import threading
import time

directory = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
os.makedirs(directory, exist_ok=True)
table = os.open(os.path.join(directory, "table"), os.O_RDWR | os.O_CREAT, 0o644)
os.posix_fallocate(table, 0, 16 << 20)
os.fsync(table)
dir_fd = os.open(directory, os.O_RDONLY)
PAGE = b"y" * 4096


def new_file(i, dir_sync):
    fd = os.open(os.path.join(directory, "f%d" % i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, b"x" * 1024)
    os.fsync(fd)
    os.close(fd)
    if dir_sync:
        os.fsync(dir_fd)


def table_flushes(i, flushes):
    for k in range(flushes):
        os.pwrite(table, PAGE, ((2 * i + k) % 4096) * 4096)
        os.fdatasync(table)


WAYS = [("file-fsync", 0, False), ("file+dir || 2 flushes", 2, True), ("file+dir || 1 flush", 1, True),
        ("file+dir", 0, True)]
micros = {name: [] for name, _, _ in WAYS}
i = 0
for _ in range(rounds):
    for name, flushes, dir_sync in WAYS:
        i += 1
        start = time.perf_counter()
        beside = threading.Thread(target=table_flushes, args=(i, flushes))
        beside.start()
        new_file(i, dir_sync)
        beside.join()
        micros[name].append((time.perf_counter() - start) * 1e6)
base = statistics.median(micros["file-fsync"])
for name, values in micros.items():
    median = statistics.median(values)
    print("%-24s median %7.0f us  p90 %7.0f us  file-fsync / this %.2f"
          % (name, median, sorted(values)[int(len(values) * 0.9)], base / median))
