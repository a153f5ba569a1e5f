package io.ringwatch.jmh.engine;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A push listener that keeps track of the revisions it is handed and checks that each event carries
 * the revision after the previous one, starting at the watch's first revision. With one put per
 * revision, a watcher that has reached revision {@code r} without a gap has received exactly every
 * revision from its start to {@code r}, once and in order: the count and the order in one check.
 * Producers read its progress ({@link WatchProgress}) to keep pace with it.
 * <p>
 * {@link #onEvents} and {@link #onCancelled} are called by the engine's delivery thread, never
 * concurrently; {@link #receivedThrough} and {@link #verifyReceivedThrough} by any thread. Checking
 * allocates nothing: the first out-of-sequence revision is recorded, not thrown, so delivery goes on
 * and the tear-down reports it.
 */
final class RevisionCheckingListener implements WatchListener, WatchProgress
{
    private static final long POLL_NANOS = 1_000_000;
    private static final long NO_GAP = -1;

    private final long firstRevision;
    private volatile long nextRevision;
    private volatile long gapExpected = NO_GAP;
    private volatile long gapReceived;
    private volatile WatchCancellation cancellation;

    /**
     * @param firstRevision the watch's start revision: the first one it must receive.
     */
    RevisionCheckingListener(final long firstRevision)
    {
        this.firstRevision = firstRevision;
        this.nextRevision = firstRevision;
    }

    /**
     * Checks the batch's revisions follow on from the previous batch. Delivery thread; allocates
     * nothing.
     *
     * @param events the events delivered.
     */
    @Override
    public void onEvents(final EventBatch events)
    {
        long next = nextRevision;
        for (int i = 0, size = events.size(); i < size; i++)
        {
            final long revision = events.get(i).revision();
            if (revision != next && gapExpected == NO_GAP)
            {
                // Received first, so a reader that sees the expectation also sees what came instead.
                gapReceived = revision;
                gapExpected = next;
            }
            next = revision + 1;
        }
        // One volatile store per batch, not per event, publishes the progress.
        nextRevision = next;
    }

    /**
     * Remembers why the watch ended. Delivery thread.
     *
     * @param cancellation why the watch ended.
     */
    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
    }

    /**
     * @return the last revision received in sequence, or {@link Long#MAX_VALUE} once the watch ended,
     * so producers stop waiting for it and the tear-down reports why. Any thread; allocates nothing.
     */
    @Override
    public long receivedThrough()
    {
        return cancellation == null ? nextRevision - 1 : Long.MAX_VALUE;
    }

    /**
     * Waits until revision {@code last} was delivered, the watch was cancelled or {@code timeout}
     * passed (a safety net, not a measurement), then checks that exactly the revisions from the first
     * to {@code last} arrived, in order. Any thread, once no more revisions are written.
     *
     * @param last    the engine's last revision.
     * @param timeout the longest to wait.
     * @throws IllegalStateException if a revision was missed, repeated or out of order, or the watch
     *                               ended or fell behind.
     */
    void verifyReceivedThrough(final long last, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (nextRevision <= last && cancellation == null && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(POLL_NANOS);
        }
        if (gapExpected != NO_GAP)
        {
            throw new IllegalStateException("the watcher received revision " + gapReceived + " where " + gapExpected +
                " was due");
        }
        if (nextRevision != last + 1 || cancellation != null)
        {
            throw new IllegalStateException("the watcher received revisions " + firstRevision + " to " + (nextRevision - 1) +
                " of " + firstRevision + " to " + last + "; cancellation: " + cancellation);
        }
    }
}
