package io.ringwatch.perf.load;

import io.ringwatch.perf.report.TimelinePoint;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects one kind of latency (write-to-listener, write-ack, send lag) from many threads without
 * sharing: each thread records into its own {@link ThreadLatency}, found through a thread local;
 * {@link #drain()} merges them. Operations scheduled before the measured phase
 * ({@link #measureFrom(long)}) are counted but not recorded (warm-up).
 *
 * <p>Any thread may record (through its own {@link ThreadLatency}). A thread's first call
 * allocates its share; later calls allocate nothing. Draining and sampling reuse their histograms,
 * so the monitor's sample each second adds no garbage to the run it measures (it was about
 * 240 KB/s, the young collections of a run at 2,000 writes/s).
 */
public final class LatencyRecorder
{
    private final ThreadLocal<ThreadLatency> perThread = ThreadLocal.withInitial(this::register);
    private final List<ThreadLatency> threads = new CopyOnWriteArrayList<>();
    private final Histogram total = new Histogram(3);
    /** One second's latencies, reset and refilled by each {@link #sample(double)}. */
    private final Histogram interval = new Histogram(3);
    private volatile long measureFromNanos = Long.MAX_VALUE;

    /**
     * @return the calling thread's share; keep it while on that thread to skip the lookup.
     */
    public ThreadLatency forCurrentThread()
    {
        return perThread.get();
    }

    /**
     * Starts the measured phase: operations intended at or after {@code nanos} are recorded.
     * Call it before the first such operation is sent.
     *
     * @param nanos the {@link System#nanoTime()} the measured phase starts at.
     */
    public void measureFrom(final long nanos)
    {
        measureFromNanos = nanos;
    }

    /**
     * @return the operations counted so far, by every thread, warm-up included.
     */
    public long count()
    {
        long sum = 0;
        for (final ThreadLatency thread : threads)
        {
            sum += thread.count();
        }
        return sum;
    }

    /**
     * Moves what every thread has recorded since the last call into the total and returns it.
     * Call it from one thread at a time, normally once the load has stopped.
     *
     * @return the merged histogram of measured latencies, in nanoseconds (a live object: copy it
     * to keep a snapshot).
     */
    public synchronized Histogram drain()
    {
        for (final ThreadLatency thread : threads)
        {
            thread.drainInto(total);
        }
        return total;
    }

    /**
     * Moves what every thread has recorded since the last call into the total, as
     * {@link #drain()} does, and returns the percentiles of that interval alone: called once a
     * second it gives latency over time. Call it from one thread at a time (the monitor).
     *
     * @param seconds the end of the interval, seconds since the measured phase started.
     * @return the interval's point; null when nothing was recorded in it.
     */
    public synchronized TimelinePoint sample(final double seconds)
    {
        interval.reset();
        for (final ThreadLatency thread : threads)
        {
            thread.drainInto(interval);
        }
        if (interval.getTotalCount() == 0)
        {
            return null;
        }
        total.add(interval);
        return TimelinePoint.of(seconds, interval);
    }

    long measureFromNanos()
    {
        return measureFromNanos;
    }

    private ThreadLatency register()
    {
        final ThreadLatency thread = new ThreadLatency(this);
        threads.add(thread);
        return thread;
    }
}
