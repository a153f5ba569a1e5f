#!/usr/bin/env python3
"""One thread's CPU per put from async-profiler's collapsed stacks, with the samples whose LEAF is the JVM's
arraycopy stub (`jbyte_disjoint_arraycopy*`, what Unsafe.copyMemory runs) and the CRC32C stub counted apart.

The arraycopy stub has no frame of its own, so async-profiler (itimer) credits its samples to whatever return
address it finds on the stack: the same copy shows up under `RevisionEncoder.encode`, under
`TableStoreWriteLock.lock` -> `ThreadLocal.get`, or under `SpaceGuard`, from one run to the next. Count it by
its leaf, not by its callers.

  python3 jmh/scripts/copy-stub-per-put.py THREAD SECONDS RUN_DIR...

RUN_DIR holds N.json (JMH's result) and N/*/collapsed-itimer.csv per run (1 ms interval); THREAD is a part
of the thread name (journal, writer, jmh-worker); SECONDS the measured seconds (iterations x seconds each).
Prints ms per million puts (= ns per put): the thread in all, the copy stub, the CRC, the rest.
"""
import glob
import json
import os
import sys


def main():
    thread, seconds = sys.argv[1], float(sys.argv[2])
    for run_dir in sys.argv[3:]:
        for result in sorted(glob.glob(os.path.join(run_dir, '*.json'))):
            base = result[:-5]
            score = json.load(open(result))[0]['primaryMetric']['score']
            stacks = glob.glob(os.path.join(base, '*', 'collapsed-itimer.csv'))[0]
            total = stub = crc = 0
            for line in open(stacks):
                stack, count = line.rstrip().rsplit(' ', 1)
                frames = stack.split(';')
                if thread not in frames[0]:
                    continue
                count = int(count)
                total += count
                if frames[-1].startswith('jbyte_disjoint_arraycopy'):
                    stub += count
                elif 'updateBytesCRC32C' in frames[-1]:
                    crc += count
            millions = score * seconds / 1e6
            print('%-16s %s %4.0f  copy stub %4.0f  crc %3.0f  rest %4.0f  ms per million puts' % (
                os.path.basename(run_dir) + '/' + os.path.basename(base), thread, total / millions,
                stub / millions, crc / millions, (total - stub - crc) / millions))


if __name__ == '__main__':
    main()
