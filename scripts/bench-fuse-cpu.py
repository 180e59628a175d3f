#!/usr/bin/env python3
"""Server CPU of two targets of scripts/bench-fuse-nfs.sh compared round by round, from the cpu.csv of one or more
runs: scripts/bench-fuse-cpu.py NEW OLD OUTDIR... (targets as the runs name them, e.g. new-async old-async).

Per step: NEW / OLD of the CPU seconds without the JIT compiler's and the GC's threads (cpu.csv's last column), for
every timed round (round 0, the warm-up, is left out) of every OUTDIR, and their geometric mean. Give runs of both
orders of the jars (NEW as the script's new target, then as its old one, passing the target names of each run as
NEW/OLD:OUTDIR) and the place of a target within a round cancels out (docs/benchmarks.md, sixteenth round):
    scripts/bench-fuse-cpu.py new-async old-async OUT-1 old-async:new-async:OUT-2
An OUTDIR written as NEWNAME:OLDNAME:DIR names its own targets.
"""
import csv
import math
import sys
from collections import defaultdict

STEPS = ['untar', 'cp-R', 'ls-lR', 'rm-rf']


def rounds_of(path, new, old):
    """{step: [new/old per timed round]} of one cpu.csv."""
    cpu = {}
    with open(path) as f:
        for row in csv.reader(f):
            if len(row) < 7 or row[0] == '0' or not row[0].isdigit():
                continue
            cpu[(row[0], row[1], row[2])] = float(row[6])
    ratios = defaultdict(list)
    for (rnd, target, step), seconds in sorted(cpu.items()):
        base = cpu.get((rnd, old, step))
        if target == new and base:
            ratios[step].append(seconds / base)
    return ratios


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    new, old = argv[1], argv[2]
    ratios = defaultdict(list)
    for spec in argv[3:]:
        parts = spec.split(':')
        n, o, d = (parts[0], parts[1], parts[2]) if len(parts) == 3 else (new, old, spec)
        for step, values in rounds_of(d + '/cpu.csv', n, o).items():
            ratios[step].extend(values)
    print('| step | CPU without JIT, GC: new / old per round | geometric mean |')
    print('|---|---|---:|')
    for step in STEPS:
        values = ratios.get(step)
        if values:
            gm = math.exp(sum(math.log(v) for v in values) / len(values))
            print(f"| {step} | {', '.join(f'{v:.2f}' for v in values)} | {gm:.3f} |")


if __name__ == '__main__':
    main(sys.argv)
