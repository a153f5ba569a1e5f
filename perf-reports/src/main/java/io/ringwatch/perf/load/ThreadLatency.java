package io.ringwatch.perf.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's share of a {@link LatencyRecorder}: an HdrHistogram single-writer recorder and a
 * count. Only the thread that obtained it from {@link LatencyRecorder#forCurrentThread()} may
 * record; any thread may read the count or drain it. Recording allocates nothing unless the
 * histogram has to grow to a latency larger than any seen before.
 */
public final class ThreadLatency
{
    private final LatencyRecorder owner;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(3);
    private final AtomicLong count = new AtomicLong();
    /** The last interval drained, handed back to the recorder for reuse, so a drain does not allocate. */
    private Histogram interval;

    ThreadLatency(final LatencyRecorder owner)
    {
        this.owner = owner;
    }

    /**
     * Counts one completed operation and, if it was scheduled in the measured phase, records its
     * latency: {@code nowNanos - intendedNanos} (0 if the clocks disagree).
     *
     * @param intendedNanos when the operation was meant to start.
     * @param nowNanos      when it completed, from {@link System#nanoTime()}.
     */
    public void record(final long intendedNanos, final long nowNanos)
    {
        if (intendedNanos >= owner.measureFromNanos())
        {
            recorder.recordValue(Math.max(0, nowNanos - intendedNanos));
        }
        // Single writer: a release store is enough for the monitoring thread to see progress.
        count.setRelease(count.getPlain() + 1);
    }

    long count()
    {
        return count.getAcquire();
    }

    /**
     * Adds what was recorded since the last drain to {@code total}. One draining thread at a time;
     * allocates only when a histogram grows to a latency larger than any it held.
     */
    void drainInto(final Histogram total)
    {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
    }
}
