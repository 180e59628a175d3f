#!/usr/bin/env python3
"""Names the kernel looked up for the paths in an `strace -f -s 4096` log of statx, openat2, openat and newfstatat
(issue 16, scripts/bench-walk.sh): per system call the non-empty names of its path argument ("" with AT_EMPTY_PATH
counts none), summed per call name and divided by the number of COMPOUNDs. usage: strace-names.py LOG COMPOUNDS"""
import collections
import re
import sys

log, compounds = sys.argv[1], int(sys.argv[2])
names = collections.Counter()
calls = collections.Counter()
with open(log) as f:
    for line in f:
        m = re.match(r'\d+\s+(statx|openat2|openat|newfstatat)\([^"]*"((?:[^"\\]|\\.)*)"', line)
        if m:
            calls[m.group(1)] += 1
            names[m.group(1)] += len([n for n in m.group(2).split('/') if n])
print('  '.join('%s %.2f calls %.1f names' % (c, calls[c] / compounds, names[c] / compounds) for c in sorted(calls))
      + '  (per compound)')
