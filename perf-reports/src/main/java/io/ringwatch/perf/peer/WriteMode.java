package io.ringwatch.perf.peer;

/**
 * How a RingWatch producer writes: async (the zero-allocation put with a callback; many writes in
 * flight, acknowledged on the writer thread) or sync (a blocking put; one write in flight per
 * producer, so a producer can fall behind a high rate).
 */
public enum WriteMode
{
    /** {@code DirectWriter.putAsync} with a pre-allocated callback per write in flight. */
    ASYNC,
    /** {@code DirectWriter.put}, blocking. */
    SYNC
}
