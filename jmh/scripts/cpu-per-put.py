#!/usr/bin/env python3
"""CPU per put, by thread, from async-profiler's collapsed stacks of a WriteBenchmark trial.

On a shared machine a throughput figure says more about the other load than about the engine, but the
CPU each put takes moves much less. Record the measured iterations with async-profiler's CPU timer
(`event=itimer`: one sample per INTERVAL of CPU time, whichever thread spends it; `threads=true` puts the
thread first in each stack), then divide each thread's samples by the puts of those iterations:

  java $FLAGS -jar jmh/target/benchmarks.jar 'WriteBenchmark.ringWatch$' -p storage=MEMORY -p pacing=SLIDING \\
    -f 1 -wi 5 -i 4 -w 1s -r 2s \\
    -prof "async:libPath=$AP/linux-x64/libasyncProfiler.so;output=collapsed;event=itimer;threads=true;interval=1000000;dir=DIR"
  python3 jmh/scripts/cpu-per-put.py DIR/*/collapsed-itimer.csv SCORE 8

SCORE is the trial's puts/s, 8 the measured seconds (iterations x seconds each); the interval is 1 ms.
Prints CPU milliseconds per million puts: in all, and per thread (digits folded, so every delivery
thread counts together; the JMH workers are the producers; G1's threads and the JIT's each as one).
Spinning wait loops count as CPU too.
"""
import collections
import re
import sys


def thread(stack):
    name = re.sub(r' tid=\d+', '', stack.split(';', 1)[0]).strip('[]')
    name = re.sub(r'-\d+$', '', name)
    if 'jmh-worker' in name:
        return 'producer'
    if name.startswith('G1'):
        return 'G1'
    if name.startswith(('C1 ', 'C2 ')):
        return 'JIT'
    return name.replace('ringwatch-', '')


def main():
    path, score, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    samples = collections.Counter()
    with open(path) as stacks:
        for line in stacks:
            line = line.strip()
            if line:
                stack, count = line.rsplit(' ', 1)
                samples[thread(stack)] += int(count)
    million_puts = score * seconds / 1e6
    total = sum(samples.values())
    print(f'cpu ms per million puts: {total / million_puts:.0f} in all')
    for name, count in samples.most_common():
        if count / million_puts >= 1:
            print(f'  {count / million_puts:6.0f}  {name}')


if __name__ == '__main__':
    main()
