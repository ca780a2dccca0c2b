#!/usr/bin/env python3
"""benchratio.py A B < gobench-output: for each benchmark with impl=A that has a twin with impl=B, the
median ns/op of B over the median ns/op of A (above 1, A is faster), and the runs of each.
go test -count N runs each benchmark N times back to back (A A A B B B), so its runs of A and B are
not in turns, and a drift in the machine's speed falls on one of them; to take turns, run go test
-count 1 in a loop (the ratio of medians is the same computation):
    for i in 1 2 3 4 5; do go test -run '^$' -bench 'Encrypt/impl=/key=/size=8192' -count 1 .; done > enc.txt"""
import sys, re, statistics, collections
a, b = sys.argv[1], sys.argv[2]
runs = collections.defaultdict(list)
for line in sys.stdin:
    m = re.match(r'(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op', line)
    if not m: continue
    runs[m.group(1)].append(float(m.group(3)))
for name, va in runs.items():
    if f'impl={a}' not in name: continue
    other = name.replace(f'impl={a}', f'impl={b}')
    if other not in runs: continue
    vb = runs[other]
    print(f'{name.replace("impl="+a, "impl="+a+"/"+b)}: {statistics.median(vb)/statistics.median(va):.2f}x'
          f'  ({a}: {" ".join(f"{v:g}" for v in va)}; {b}: {" ".join(f"{v:g}" for v in vb)} ns/op)')
