package io.ringwatch.engine.internal.history;

import com.lmax.disruptor.Sequence;
import io.ringwatch.engine.spi.ReplayBatch;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * A single-producer, single-consumer ring of preallocated {@link ReplayBatch}es between recovery's
 * reader thread, which fills them from the log, and the opening thread, which applies them to the
 * index. The producer {@link #claim claims} a free batch, fills it and {@link #publish publishes} it;
 * the consumer {@link #take takes} the oldest published batch, applies it and {@link #release
 * releases} it. Back-pressure: a producer that finds every batch unreleased waits; a consumer that
 * finds none published waits. Either side waits with a backoff (spin, yield, then parks of up to 200
 * µs), so a waiting side leaves the core to the other on a small machine.
 * <p>
 * The producer ends the ring once with {@link #finish}, naming what failed, if anything; the
 * consumer, once it has taken every published batch, sees the end and the failure. The consumer
 * {@link #cancel cancels} the ring when it stops early, which ends any wait of the producer.
 * <p>
 * Threads: one producer thread and one consumer thread; {@link #cancel} any thread. Allocation:
 * the batches, once, at construction; nothing per batch.
 */
final class ReplayRing
{
    /** A parked side wakes well within the time the other needs to fill or drain the ring. */
    private static final long MAX_PARK_NANOS = 200_000;

    private final ReplayBatch[] batches;
    private final int mask;
    /** Batches published: written by the producer only (the Disruptor's padded sequence). */
    private final Sequence published = new Sequence(0);
    /** Batches released: written by the consumer only. */
    private final Sequence released = new Sequence(0);
    private final IdleStrategy producerIdle = new BackoffIdleStrategy(64, 16, 1_000, MAX_PARK_NANOS);
    private final IdleStrategy consumerIdle = new BackoffIdleStrategy(64, 16, 1_000, MAX_PARK_NANOS);
    private volatile boolean finished;
    private volatile boolean cancelled;
    /** Written before {@link #finished}, read after it. */
    private Throwable failure;
    private long claimed;
    private long taken;

    /**
     * @param batchCount   batches in the ring, a power of two.
     * @param batchChanges changes per batch, at least 1.
     * @param batchBytes   each batch's first buffer size in bytes.
     */
    ReplayRing(final int batchCount, final int batchChanges, final int batchBytes)
    {
        if (batchCount < 1 || Integer.bitCount(batchCount) != 1)
        {
            throw new IllegalArgumentException("a replay ring needs a power of two of batches: " + batchCount);
        }
        batches = new ReplayBatch[batchCount];
        for (int i = 0; i < batchCount; i++)
        {
            batches[i] = new ReplayBatch(batchChanges, batchBytes);
        }
        mask = batchCount - 1;
    }

    /**
     * Waits for a released batch and returns it emptied. Producer thread.
     *
     * @return the batch to fill, or null once the ring is cancelled.
     */
    ReplayBatch claim()
    {
        final long wrap = claimed - batches.length;
        producerIdle.reset();
        // Checked before each batch, not only while waiting: a cancelled reader stops at once
        // rather than filling the ring's free batches for no one.
        while (!cancelled)
        {
            if (released.get() > wrap)
            {
                final ReplayBatch batch = batches[(int)(claimed & mask)];
                batch.clear();
                return batch;
            }
            producerIdle.idle();
        }
        return null;
    }

    /** Publishes the batch {@link #claim} returned last. Producer thread. */
    void publish()
    {
        claimed++;
        published.set(claimed);
    }

    /**
     * Ends the ring after the batches published so far. Producer thread, once.
     *
     * @param failure what stopped the producer, or null if it reached the end of the log.
     */
    void finish(final Throwable failure)
    {
        this.failure = failure;
        finished = true;
    }

    /**
     * Waits for the oldest unreleased published batch. Consumer thread.
     *
     * @return the batch, or null at the end (every published batch taken, the producer finished).
     * @throws RuntimeException or {@link Error}: what stopped the producer, rethrown as it was, once
     *                          every batch published before it was taken.
     */
    ReplayBatch take()
    {
        consumerIdle.reset();
        while (published.get() <= taken)
        {
            if (finished)
            {
                // published is written before finished: read again now that finished was seen.
                if (published.get() > taken)
                {
                    break;
                }
                rethrowFailure();
                return null;
            }
            consumerIdle.idle();
        }
        return batches[(int)(taken & mask)];
    }

    /** Releases the batch {@link #take} returned last, for the producer to refill. Consumer thread. */
    void release()
    {
        taken++;
        released.set(taken);
    }

    /** Ends any wait of the producer and makes its later claims return null. Any thread. */
    void cancel()
    {
        cancelled = true;
    }

    private void rethrowFailure()
    {
        final Throwable thrown = failure;
        if (thrown instanceof RuntimeException runtime)
        {
            throw runtime;
        }
        if (thrown instanceof Error error)
        {
            throw error;
        }
        if (thrown != null)
        {
            throw new IllegalStateException("the recovery reader failed", thrown);
        }
    }
}
