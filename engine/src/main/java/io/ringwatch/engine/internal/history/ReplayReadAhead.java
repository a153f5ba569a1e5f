package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.internal.thread.Joins;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.ReplayBatch;

/**
 * Recovery's reader thread ({@value #THREAD_NAME}): reads and decodes the log into a
 * {@link ReplayRing} ahead of the opening thread, which applies the batches, so that the log's read
 * and decode overlap the index's cache misses instead of adding to them.
 * <p>
 * Lifecycle: {@link #start} hands the reader (already positioned by the opening thread) to a new
 * thread; {@link #close} cancels the ring and joins the thread, so the thread never outlives the
 * replay, whether it ended, failed on the reader or failed while applying. The opening thread
 * keeps ownership of the reader: it seeks before {@link #start} and closes it after
 * {@link #close} (the thread's start and join publish the hand-overs). What the reader throws
 * travels through the ring unchanged and is thrown by the opening thread's {@link #take}.
 * <p>
 * Threads: the opening thread calls every method. Allocation: the thread, once.
 */
final class ReplayReadAhead implements AutoCloseable
{
    static final String THREAD_NAME = "ringwatch-recovery-reader";

    private final ReplayRing ring;
    private final Thread thread;

    private ReplayReadAhead(final HistoryReader reader, final ReplayRing ring)
    {
        this.ring = ring;
        this.thread = new Thread(() -> read(reader, ring), THREAD_NAME);
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading {@code reader} into {@code ring} on a new thread.
     *
     * @param reader the positioned reader; not used by the caller until {@link #close}.
     * @param ring   an unused ring.
     * @return the running read-ahead, to take batches from and close.
     */
    static ReplayReadAhead start(final HistoryReader reader, final ReplayRing ring)
    {
        final ReplayReadAhead readAhead = new ReplayReadAhead(reader, ring);
        readAhead.thread.start();
        return readAhead;
    }

    private static void read(final HistoryReader reader, final ReplayRing ring)
    {
        Throwable failure = null;
        try
        {
            boolean more = true;
            while (more)
            {
                final ReplayBatch batch = ring.claim();
                if (batch == null)
                {
                    break;
                }
                more = reader.fill(batch);
                ring.publish();
            }
        }
        catch (final Throwable thrown)
        {
            failure = thrown;
        }
        ring.finish(failure);
    }

    /**
     * @return the next batch the reader filled, or null after the last.
     * @throws RuntimeException or {@link Error}: what the reader threw, as it threw it, after every
     *                          batch it filled before.
     */
    ReplayBatch take()
    {
        return ring.take();
    }

    /** Hands the batch {@link #take} returned back to the reader. */
    void release()
    {
        ring.release();
    }

    /**
     * Stops the reader (if still reading) and waits for its thread to end. Idempotent; an
     * interrupt while waiting is kept for the caller (the flag is set again once the thread ended).
     */
    @Override
    public void close()
    {
        ring.cancel();
        Joins.joinUninterruptibly(thread);
    }
}
