#!/usr/bin/env python3
"""Context switches per put, by thread, from the snapshots ctxsw-per-put.sh takes.

  python3 jmh/scripts/ctxsw-per-put.py OUTFILE   (the OUTFILE given to ctxsw-per-put.sh)

Reads OUTFILE.a and OUTFILE.b (tid, thread name, voluntary and involuntary switches), their times, and the
trial's puts/s from OUTFILE.jmh; prints switches per put in all and per thousand puts by thread (digits of
the names folded, so every delivery thread counts together).
"""
import sys, re, collections
base = sys.argv[1]
def load(f):
    d = {}
    for line in open(f):
        tid, rest = line.split(' ', 1)
        name, v, nv = rest.rstrip('\n').split('|')
        if v and nv:
            d[tid] = (name, int(v), int(nv))
    return d
a, b = load(base + '.a'), load(base + '.b')
secs = float(open(base + '.tb').read()) - float(open(base + '.ta').read())
score = None
for line in open(base + '.jmh'):
    if line.startswith('WriteBenchmark.ringWatch '):
        score = float(line.split()[-4].replace(',', ''))
puts = score * secs
by = collections.defaultdict(lambda: [0, 0])
for tid, (name, v, nv) in b.items():
    if tid in a:
        key = re.sub(r'[-#]?\d+$', '', name)
        by[key][0] += v - a[tid][1]; by[key][1] += nv - a[tid][2]
tot = sum(x[0] + x[1] for x in by.values())
print('score %.0f puts/s over %.1f s: %.3f switches per put (%.0f/s)' % (score, secs, tot / puts, tot / secs))
for k, (v, nv) in sorted(by.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:8]:
    print('  %-20s vol %7d nonvol %7d  per 1000 puts %.2f' % (k, v, nv, 1000 * (v + nv) / puts))
