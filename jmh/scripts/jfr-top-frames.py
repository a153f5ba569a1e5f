#!/usr/bin/env python3
"""Top frames per thread of a JFR recording's CPU samples (jdk.ExecutionSample).

Reads the JSON that `jfr print --json --events jdk.ExecutionSample REC.jfr` writes and prints, for each
thread (digits at the end of a name folded, so ringwatch-delivery-1 and -2 count together), its sample
count and its top frames twice: the innermost frame (where the CPU was), and the innermost RingWatch
frame (which of our methods it was working for).

  jfr print --json --events jdk.ExecutionSample REC.jfr > samples.json
  python3 jmh/scripts/jfr-top-frames.py samples.json [TOP]
"""
import collections
import json
import re
import sys


def frames(event):
    trace = event['values'].get('stackTrace') or {}
    return [f['method']['type']['name'].replace('/', '.') + '.' + f['method']['name']
            for f in trace.get('frames') or []]


def thread_name(event):
    thread = event['values'].get('sampledThread') or {}
    return re.sub(r'\d+$', 'N', thread.get('javaName') or thread.get('osName') or '?')


def main():
    events = json.load(open(sys.argv[1]))['recording']['events']
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    totals = collections.Counter()
    innermost = collections.defaultdict(collections.Counter)
    ours = collections.defaultdict(collections.Counter)
    for event in events:
        stack = frames(event)
        if event['type'] != 'jdk.ExecutionSample' or not stack:
            continue
        thread = thread_name(event)
        totals[thread] += 1
        innermost[thread][stack[0]] += 1
        ours[thread][next((f for f in stack if f.startswith('io.ringwatch.')), '(no RingWatch frame)')] += 1
    for thread, count in totals.most_common():
        print(f'{thread}: {count} samples')
        for title, table in (('innermost frame', innermost), ('innermost RingWatch frame', ours)):
            print(f'  {title}:')
            for frame, n in table[thread].most_common(top):
                print(f'    {100 * n / count:5.1f}%  {frame}')


if __name__ == '__main__':
    main()
