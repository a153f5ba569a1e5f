package io.ringwatch.perf.recovery;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.WriteCallback;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The one pre-allocated callback of a producer's asynchronous puts, bounding how many are in flight:
 * the producer calls {@link #sent()} after each put and, every {@value #WINDOW} puts, waits until the
 * writer has acknowledged all of them.
 * <p>
 * {@link #sent()} and {@link #awaitAll()} are called by the one producer thread; {@link #onWritten}
 * and {@link #onFailed} by the engine's writer thread; the getters by any thread. Allocates nothing
 * after construction.
 */
final class InFlightPuts implements WriteCallback
{
    /** Puts sent before the producer waits for all of them: a power of two. */
    static final int WINDOW = 1024;

    // Parks rather than spins: on a small machine a spinning producer starves the writer.
    private final IdleStrategy idle = new BackoffIdleStrategy(64, 16, 1_000, 100_000);
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private long sent;
    private long acknowledgedByWriter;
    private volatile RingWatchException firstFailure;

    /**
     * Counts one put sent and, at each window boundary, waits for the writer to catch up. Producer
     * thread; allocates nothing.
     */
    void sent()
    {
        if ((++sent & (WINDOW - 1)) == 0)
        {
            awaitAll();
        }
    }

    /**
     * Waits until every put sent so far was acknowledged. Producer thread; allocates nothing.
     */
    void awaitAll()
    {
        idle.reset();
        while (acknowledged.get() < sent)
        {
            idle.idle();
        }
    }

    /**
     * @return puts the engine refused. Any thread.
     */
    long failed()
    {
        return failed.get();
    }

    /**
     * @return the first refusal's reason, or null. Any thread.
     */
    RingWatchException firstFailure()
    {
        return firstFailure;
    }

    @Override
    public void onWritten(final long revision, final boolean succeeded, final long deleted)
    {
        // Only the writer thread counts, so an ordered store publishes the count.
        acknowledged.lazySet(++acknowledgedByWriter);
    }

    @Override
    public void onFailed(final RingWatchException error)
    {
        if (firstFailure == null)
        {
            firstFailure = error;
        }
        failed.lazySet(failed.get() + 1);
        acknowledged.lazySet(++acknowledgedByWriter);
    }
}
