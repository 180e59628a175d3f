#!/usr/bin/env python3
"""Both orders of scripts/bench-ab.sh read together: scripts/bench-ab-pairs.py PREFIX.

PREFIX-bn-N are runs with the base jar in the "old" slot and the new one in the "tcnfs" slot, PREFIX-nb-N the same
with the jars swapped. Prints, per row, new / base for plain and transactional compounds in every run with the slot
cancelled and their geometric mean; then the medians over all runs of new / Ganesha, base / Ganesha and
transactional / plain for each build. Every ratio is taken inside one run first."""
import collections
import csv
import glob
import math
import statistics
import sys


def runs(prefix):
    for path in sorted(glob.glob(prefix + '-bn-*')) + sorted(glob.glob(prefix + '-nb-*')):
        if path.endswith('.log'):
            continue
        rate = {(r['workload'], r['parameter'], r['target']): float(r['ops_per_second'])
                for r in csv.DictReader(open(path + '/results.csv')) if r['ops_per_second']}
        swapped = '-nb-' in path
        yield rate, ('old', 'tcnfs') if swapped else ('tcnfs', 'old')


def main(prefix):
    pairs = collections.defaultdict(list)
    against = collections.defaultdict(list)
    for rate, (new, base) in runs(prefix):
        for (workload, parameter, target) in rate:
            if target != 'ganesha':
                continue
            row = (workload, parameter)
            get = lambda t: rate.get(row + (t,))
            for kind, suffix in (('plain', ''), ('txn', '-txn')):
                if get(new + suffix) and get(base + suffix):
                    pairs[row + (kind,)].append(get(new + suffix) / get(base + suffix))
            if all(get(t) for t in (new, base, new + '-txn', base + '-txn', 'ganesha')):
                against[row].append((get(new) / get('ganesha'), get(base) / get('ganesha'),
                                     get(new + '-txn') / get(new), get(base + '-txn') / get(base)))
    print('row | kind | new / base per run | gm')
    for key in sorted(pairs):
        ratios = pairs[key]
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"{key[0]} {key[1]} | {key[2]} | {', '.join(f'{x:.2f}' for x in ratios)} | {gm:.2f}")
    print()
    print('row | new / Ganesha | base / Ganesha | txn / plain new | txn / plain base | runs')
    for row in sorted(against):
        medians = [statistics.median(column) for column in zip(*against[row])]
        print(f"{row[0]} {row[1]} | " + ' | '.join(f'{m:.2f}' for m in medians) + f" | {len(against[row])}")


if __name__ == '__main__':
    main(sys.argv[1])
