#!/usr/bin/env python3
"""benchratio.py A B < gobench-output: for each benchmark with impl=A that has a twin with impl=B in
the same run, the median over rounds (-count) of ns/op(B) / ns/op(A): above 1 means A is faster.
The same-process ratios the README quotes, interleaved by go test -count."""
import sys, re, statistics, collections
a, b = sys.argv[1], sys.argv[2]
rounds = collections.defaultdict(list)
for line in sys.stdin:
    m = re.match(r'(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op', line)
    if not m: continue
    rounds[m.group(1)].append(float(m.group(3)))
out = {}
for name, vals in rounds.items():
    if f'impl={a}' not in name: continue
    other = name.replace(f'impl={a}', f'impl={b}')
    if other not in rounds: continue
    rs = [y/x for x, y in zip(vals, rounds[other])]
    print(f'{name.replace("impl="+a, "impl="+a+"/"+b)}: median {statistics.median(rs):.2f}x  (runs: {" ".join(f"{r:.2f}" for r in rs)})')
