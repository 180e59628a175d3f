#!/usr/bin/env python3
"""Median table of several scripts/bench.sh runs (docs/benchmarks.md).

Usage: scripts/bench-median.py RESULT_DIR...   (each holds the results.csv of one bench.sh run)

For every workload row: the median throughput of each target over the runs, and ratios. Each ratio is
computed within one run (both sides measured minutes apart on the same servers) and the median of those
per-run ratios is printed; the txn/tcnfs column also lists every run's ratio, so the spread is visible.
Targets and ratios that no run has (tcnfs-async before 2026-11-26) are left out. Standard library only.
"""
import csv
import statistics
import sys
from collections import OrderedDict

TARGETS = ("tcnfs-txn", "tcnfs", "tcnfs-async", "ganesha", "disk")
# tcnfs-async / ganesha: like for like in durability (neither syncs a directory before a plain reply)
RATIOS = (("tcnfs", "ganesha"), ("tcnfs-txn", "ganesha"), ("tcnfs-async", "ganesha"), ("tcnfs", "disk"))


def load(dirs):
    """{(workload, parameter): [ {target: ops/s or None} per run ]}, rows in the order of the first run."""
    rows = OrderedDict()
    for run, d in enumerate(dirs):
        with open(f"{d}/results.csv", newline="") as f:
            for r in csv.DictReader(f):
                runs = rows.setdefault((r["workload"], r["parameter"]), [{} for _ in dirs])
                value = r["ops_per_second"]
                runs[run][r["target"]] = float(value) if value else None
    return rows


def median_of(values):
    present = [v for v in values if v]
    return statistics.median(present) if present else None


def ratios(runs, a, b):
    return [r[a] / r[b] for r in runs if r.get(a) and r.get(b)]


def fmt(v, digits=0):
    return "failed" if v is None else f"{v:.{digits}f}"


def main(dirs):
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    rows = load(dirs)
    seen = {t for runs in rows.values() for r in runs for t in r}
    targets = [t for t in TARGETS if t in seen]
    pairs = [(a, b) for a, b in RATIOS if a in seen and b in seen]
    print("| workload | parameter | " + " | ".join(f"{t} ops/s" for t in targets)
          + " | tcnfs-txn / tcnfs (each run) | " + " | ".join(f"{a} / {b}" for a, b in pairs) + " |")
    print("|---|---|" + "---:|" * len(targets) + "---|" + "---:|" * len(pairs))
    for (workload, parameter), runs in rows.items():
        medians = [fmt(median_of([r.get(t) for r in runs])) for t in targets]
        txn = ratios(runs, "tcnfs-txn", "tcnfs")
        txn_cell = "-" if not txn else f"{statistics.median(txn):.2f} ({', '.join(f'{v:.2f}' for v in txn)})"
        others = []
        for a, b in pairs:
            values = ratios(runs, a, b)
            others.append("-" if not values else f"{statistics.median(values):.2f}")
        print(f"| {workload} | {parameter} | " + " | ".join(medians) + f" | {txn_cell} | " + " | ".join(others) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
