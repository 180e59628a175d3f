#!/usr/bin/env python3
"""Median table of several scripts/bench.sh runs (docs/benchmarks.md).

Usage: scripts/bench-median.py RESULT_DIR...   (each holds the results.csv of one bench.sh run)

For every workload row: the median throughput of each target over the runs, and ratios. Each ratio is
computed within one run (both sides measured minutes apart on the same servers) and the median of those
per-run ratios is printed; the txn/tcnfs column also lists every run's ratio, so the spread is visible.
Standard library only.
"""
import csv
import statistics
import sys
from collections import OrderedDict

TARGETS = ("tcnfs-txn", "tcnfs", "ganesha", "disk")
RATIOS = (("tcnfs", "ganesha"), ("tcnfs-txn", "ganesha"), ("tcnfs", "disk"))


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
    print("| workload | parameter | " + " | ".join(f"{t} ops/s" for t in TARGETS)
          + " | tcnfs-txn / tcnfs (each run) | " + " | ".join(f"{a} / {b}" for a, b in RATIOS) + " |")
    print("|---|---|" + "---:|" * len(TARGETS) + "---|" + "---:|" * len(RATIOS))
    for (workload, parameter), runs in load(dirs).items():
        medians = [fmt(median_of([r.get(t) for r in runs])) for t in TARGETS]
        txn = ratios(runs, "tcnfs-txn", "tcnfs")
        txn_cell = "-" if not txn else f"{statistics.median(txn):.2f} ({', '.join(f'{v:.2f}' for v in txn)})"
        others = []
        for a, b in RATIOS:
            values = ratios(runs, a, b)
            others.append("-" if not values else f"{statistics.median(values):.2f}")
        print(f"| {workload} | {parameter} | " + " | ".join(medians) + f" | {txn_cell} | " + " | ".join(others) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
