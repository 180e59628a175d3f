#!/usr/bin/env python3
# Table of scripts/bench-readloop.sh results: median over the rounds after the first SKIP (default 1) of each
# shape, old and new. usage: scripts/bench-readloop-table.py OUTDIR/ab.txt [SKIP]
import sys, re, collections, statistics
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    m = re.match(r'(\w+) r(\d+) (\w+)\s+(\d+) compounds\s+(\d+) /s\s+server cpu ([\d.]+) us/compound\s+alloc ([\d.-]+) KB/compound\s+load ([\d.]+)', line)
    if not m: continue
    t, r, shape, n, rate, cpu, alloc, load = m.groups()
    if int(r) <= (int(sys.argv[2]) if len(sys.argv) > 2 else 1): continue  # skip warm-up rounds
    rows[shape][t].append((float(rate), float(cpu), float(alloc), float(load)))
print("| shape | old compounds/s | new compounds/s | new/old | old server CPU us/compound | new | old KB allocated/compound | new |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for shape, d in rows.items():
    o, n = d['old'], d['new']
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    print(f"| {shape} | {med(o,0):.0f} | {med(n,0):.0f} | {med(n,0)/med(o,0):.2f} | {med(o,1):.0f} | {med(n,1):.0f} | {med(o,2):.1f} | {med(n,2):.1f} |")
loads = [x[3] for d in rows.values() for v in d.values() for x in v]
print(f"load average {min(loads)}-{max(loads)}")
