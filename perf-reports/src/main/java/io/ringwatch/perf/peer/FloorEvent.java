package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.LatencyRecorder;

/**
 * One pre-allocated slot of the Disruptor floor's ring: which key was written, when the write was
 * meant to be sent, and where its acknowledgement is recorded. It carries no key or value bytes:
 * the floor measures the hand-over between threads, not copies. A producer fills it between claim
 * and publish; the handler thread reads it after, and the ring's publish orders the two.
 */
final class FloorEvent
{
    /** The key's number in the workload, which indexes the floor's route table. */
    int keyIndex;
    /** The write's intended send time, {@link System#nanoTime()}. */
    long intendedNanos;
    /** The run's acknowledgement recorder; the handler records into its own share of it. */
    LatencyRecorder acks;
}
