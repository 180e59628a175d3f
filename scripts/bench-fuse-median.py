#!/usr/bin/env python3
"""Median table of scripts/bench-fuse-nfs.sh: scripts/bench-fuse-median.py OUTDIR/fuse.csv (seconds; ratios of medians)."""
import csv,statistics,sys,collections
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    r,t,s,sec,rc=line.strip().split(',')
    d[(t,s)].append(float(sec))
steps=['untar','cp-R','ls-lR','rm-rf']; targets=['ganesha','new','new-always','old']
if any(t=='new-async' for t,_ in d): targets.insert(3,'new-async')  # TCNFS_ASYNC=1 runs
if any(t=='old-async' for t,_ in d): targets.append('old-async')  # TCNFS_ASYNC=1 with an old jar
extra=[('new-async','ganesha')] if 'new-async' in targets else []
if 'old-async' in targets: extra.append(('new-async','old-async'))
print('| step | '+' | '.join(targets)+' | new / ganesha (time ratio) | new-always / new | new / old |'+''.join(' %s / %s |'%p for p in extra))
print('|---|'+'---:|'*len(targets)+'---:|---:|---:|'+'---:|'*len(extra))
for s in steps:
    cells=[]
    med={}
    for t in targets:
        v=d.get((t,s),[])
        if v: med[t]=statistics.median(v)
        cells.append(('%.2f (%s)'%(statistics.median(v),', '.join('%.2f'%x for x in v))) if v else '-')
    def rt(a,b): return '%.2fx'%(med[a]/med[b]) if a in med and b in med else '-'
    print('| %s | '%s+' | '.join(cells)+' | %s | %s | %s |'%(rt('new','ganesha'),rt('new-always','new'),rt('new','old'))+''.join(' %s |'%rt(a,b) for a,b in extra))
