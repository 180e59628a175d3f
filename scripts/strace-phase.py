#!/usr/bin/env python3
"""Counts the system calls of one phase of an `strace -f` log: between the lines naming START and END (issue 16,
scripts/bench-tree-phases.sh). usage: strace-phase.py STRACE_LOG START END"""
import collections
import re
import sys

log, start, end = sys.argv[1], sys.argv[2], sys.argv[3]
inside = False
calls = collections.Counter()
with open(log) as f:
    for line in f:
        if start in line:
            inside = True
            continue
        if inside and end in line:
            break
        m = re.match(r'\d+\s+(\w+)\(', line)
        if inside and m:
            calls[m.group(1)] += 1
for name, count in calls.most_common(25):
    print(count, name)
