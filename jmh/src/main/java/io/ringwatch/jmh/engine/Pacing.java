package io.ringwatch.jmh.engine;

/**
 * How a benchmark producer holds itself to the engine's pace ({@link AckWindow}), with a window of
 * {@code W} puts.
 */
public enum Pacing
{
    /**
     * Every {@code W} puts the producer stops until all of them were acknowledged and received by the
     * watcher: the writer idles while the producer waits, and the producer while the writer drains.
     */
    DRAIN,
    /**
     * The producer keeps at most {@code W} puts that the watcher has not yet received (without a
     * watcher: not yet acknowledged) and sends the next as soon as the oldest was received, so it
     * stays busy and the writer always has work: the engine's sustained rate.
     */
    SLIDING
}
