#!/usr/bin/env python3
"""Bytes a JVM's threads allocated during a JFR recording (issue 16, docs/benchmarks.md "the CPU of a warm server per
short compound"): the difference between each thread's first and last jdk.ThreadAllocationStatistics event (settings
default and profile record one at the start and one at the end of a recording), summed, and per thread kind (the name
without its trailing number). Threads started during the recording count from their first event on.
usage: scripts/jfr-allocated.py RECORDING.jfr [COMPOUNDS]   (with COMPOUNDS: also the bytes per compound)"""
import collections
import json
import subprocess
import sys

out = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ThreadAllocationStatistics', sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
first, last = {}, {}
for event in json.loads(out)['recording']['events']:
    thread = event['values']['thread']
    key = ((thread and thread['javaName']) or '?', thread['javaThreadId'] if thread else 0)
    first.setdefault(key, event['values']['allocated'])
    last[key] = event['values']['allocated']
kinds = collections.Counter()
for key, allocated in last.items():
    kinds[key[0].rstrip('0123456789-')] += allocated - first[key]
total = sum(kinds.values())
print('allocated %d bytes' % total + ('' if len(sys.argv) < 3 else ', %.0f per compound' % (total / int(sys.argv[2]))))
for kind, allocated in kinds.most_common(5):
    print('  %-32s %d' % (kind, allocated))
