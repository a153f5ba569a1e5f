#!/usr/bin/env python3
"""Which frames moved between two WriteBenchmark profiles: CPU per put, by thread and frame.

Takes two of async-profiler's collapsed-stack files recorded as cpu-per-put.py describes (CPU timer,
`threads=true`), each with its trial's puts/s, and the measured seconds:

  python3 jmh/scripts/frames-moved.py BEFORE.csv BEFORE_SCORE AFTER.csv AFTER_SCORE 10 [FRAMES]

For each engine thread (the JMH workers are the producers) it prints the thread's CPU milliseconds per
million puts, then its FRAMES (default 10) heaviest frames, counted inclusively (a frame counts every
sample it is on the stack of), before and after, with the change. Frames every sample of a thread
carries (its run loop) are left out. Inclusive counts make a cost that moved from one callee to another
show at the caller that holds both.
"""
import collections
import re
import sys

THREADS = ('writer', 'producer', 'dispatcher', 'delivery')


def thread(stack):
    name = re.sub(r' tid=\d+', '', stack.split(';', 1)[0]).strip('[]')
    name = re.sub(r'-\d+$', '', name)
    return 'producer' if 'jmh-worker' in name else name.replace('ringwatch-', '')


def load(path, score, seconds):
    million_puts = score * seconds / 1e6
    totals = collections.Counter()
    frames = collections.defaultdict(collections.Counter)
    with open(path) as stacks:
        for line in stacks:
            line = line.strip()
            if not line:
                continue
            stack, count = line.rsplit(' ', 1)
            name = thread(stack)
            if name not in THREADS:
                continue
            totals[name] += int(count)
            for frame in set(stack.split(';')[1:]):
                frames[name][frame] += int(count)
    scale = 1 / million_puts
    return ({n: c * scale for n, c in totals.items()},
            {n: {f: c * scale for f, c in fs.items()} for n, fs in frames.items()})


def main():
    before = load(sys.argv[1], float(sys.argv[2]), float(sys.argv[5]))
    after = load(sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    count = int(sys.argv[6]) if len(sys.argv) > 6 else 10
    print('cpu ms per million puts: before -> after (change)')
    for name in THREADS:
        b_total, a_total = before[0].get(name, 0), after[0].get(name, 0)
        print(f'{name}: {b_total:.0f} -> {a_total:.0f} ({a_total - b_total:+.0f})')
        b_frames, a_frames = before[1].get(name, {}), after[1].get(name, {})
        heavy = collections.Counter()
        for frames, total in ((b_frames, b_total), (a_frames, a_total)):
            for frame, ms in frames.items():
                if ms < 0.98 * total:
                    heavy[frame] = max(heavy[frame], ms)
        for frame, _ in heavy.most_common(count):
            b, a = b_frames.get(frame, 0), a_frames.get(frame, 0)
            print(f'  {b:6.0f} -> {a:6.0f} ({a - b:+5.0f})  {frame}')


if __name__ == '__main__':
    main()
