#!/usr/bin/env python3
"""A source-like tree: 200 directories up to 6 deep, 2,000 files of log-normal sizes (mean ~15 KiB), seed 42."""
import os, random, sys
root = sys.argv[1]; random.seed(42)
dirs = [root]
os.makedirs(root, exist_ok=True)
for i in range(200):
    parent = random.choice([d for d in dirs if d.count('/') - root.count('/') < 6])
    d = os.path.join(parent, 'd%03d' % i); os.makedirs(d); dirs.append(d)
for i in range(2000):
    size = min(int(random.lognormvariate(8.8, 1.2)), 1 << 20)
    with open(os.path.join(random.choice(dirs), 'f%04d.c' % i), 'wb') as f:
        f.write(os.urandom(size // 2) + b'x' * (size - size // 2))
