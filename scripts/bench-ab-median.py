#!/usr/bin/env python3
"""Median table of scripts/bench-ab.sh runs: scripts/bench-ab-median.py target/ab-1 target/ab-2 target/ab-3.
Every ratio is computed inside one run first; the cell shows the median and each run's value."""
import csv,sys,statistics,glob
runs=sys.argv[1:]
data={}
for r in runs:
    for row in csv.DictReader(open(r+'/results.csv')):
        key=(row['workload'],row['parameter'])
        v=row['ops_per_second']
        data.setdefault(key,{}).setdefault(r,{})[row['target']]=float(v) if v else None
def ratio(d,a,b):
    return d[a]/d[b] if d.get(a) and d.get(b) else None
pairs=[('tcnfs','ganesha'),('old','ganesha'),('tcnfs','old'),('tcnfs-txn','tcnfs'),('old-txn','old'),('tcnfs','disk')]
targets=['tcnfs-txn','tcnfs','old-txn','old','ganesha','disk']
if any('tcnfs-async' in per[r] for per in data.values() for r in per):  # TCNFS_ASYNC=1 runs
    targets.append('tcnfs-async'); pairs+=[('tcnfs-async','ganesha'),('tcnfs-async','tcnfs')]
print('| workload | parameter | '+' | '.join('%s ops/s'%t for t in targets)+' | '+' | '.join('%s / %s'%p for p in pairs)+' |')
print('|---|---|'+'---:|'*len(targets)+'---|'*len(pairs))
for key,per in data.items():
    cells=[]
    for t in targets:
        vals=[per[r].get(t) for r in per if per[r].get(t)]
        cells.append('%.0f'%statistics.median(vals) if vals else 'failed')
    for a,b in pairs:
        rs=[ratio(per[r],a,b) for r in per]
        rs=[x for x in rs if x is not None]
        cells.append(('**%.2f** (%s)'%(statistics.median(rs),', '.join('%.2f'%x for x in rs))) if rs else '-')
    print('| %s | %s | '%key+' | '.join(cells)+' |')
