package io.ringwatch.jmh.engine;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.WriteCallback;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One producer's pre-allocated callback for all its asynchronous puts, bounding how many are in
 * flight to a window of {@code W} puts ({@value #WINDOW} unless given), so that the ring, not an
 * unbounded backlog, absorbs bursts. The producer calls {@link #sent()} after each put; with
 * {@link Pacing#DRAIN} it waits, every {@code W} puts, until the writer has acknowledged every one;
 * with {@link Pacing#SLIDING} it waits only while {@code W} puts are outstanding, for the oldest. A
 * window given a watcher's {@link WatchProgress} counts a put outstanding until the watcher has
 * received it, so the producer runs at most {@code W} puts ahead of the watch path, as a bounded
 * watcher queue would hold it, instead of outrunning it until the watch window laps the watcher.
 * <p>
 * {@link #sent()} and {@link #awaitAll()} are called by its one producer thread; {@link #onWritten}
 * and {@link #onFailed} by the engine's writer thread; the getters by any thread. Allocates nothing
 * after construction.
 */
public final class AckWindow implements WriteCallback
{
    /** Puts a producer sends before it waits for all of them: a power of two. */
    public static final int WINDOW = 1024;

    // Parks (up to 100 µs) rather than spins: on a small machine a spinning producer starves the writer.
    private final IdleStrategy idle = new BackoffIdleStrategy(64, 16, 1_000, 100_000);
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final WatchProgress watcher;
    private final Pacing pacing;
    private final int window;
    // SLIDING: the revision of acknowledged put k (counted from 1) at [k & mask]. Twice the window, so
    // the writer, at most W puts past the oldest one the producer waits for, never overwrites its slot.
    private final long[] revisions;
    private final int mask;
    private long sent;
    private long acknowledgedByWriter;
    // Written by the writer before its ordered store of the count, so a producer that has read the
    // count sees the revision of the put it acknowledged.
    private long lastRevision;
    private volatile RingWatchException firstFailure;

    /**
     * A window whose puts leave it once the writer acknowledged them. Any thread.
     */
    public AckWindow()
    {
        this(() -> Long.MAX_VALUE);
    }

    /**
     * A window whose puts leave it once the writer acknowledged them and {@code watcher} received
     * them. Any thread.
     *
     * @param watcher the watcher the producer keeps pace with.
     */
    AckWindow(final WatchProgress watcher)
    {
        this(watcher, Pacing.DRAIN, WINDOW);
    }

    /**
     * A window of {@code window} puts, paced by {@code pacing}, whose puts leave it once the writer
     * acknowledged them and {@code watcher} received them. Any thread; allocates the revisions of
     * {@code 2 × window} puts for {@link Pacing#SLIDING}.
     *
     * @param watcher the watcher the producer keeps pace with.
     * @param pacing  when the producer waits.
     * @param window  the most puts outstanding; a power of two.
     * @throws IllegalArgumentException if {@code window} is not a positive power of two.
     */
    AckWindow(final WatchProgress watcher, final Pacing pacing, final int window)
    {
        if (window < 1 || Integer.bitCount(window) != 1 || window > 1 << 20)
        {
            throw new IllegalArgumentException("the window must be a power of two up to 2^20: " + window);
        }
        this.watcher = watcher;
        this.pacing = pacing;
        this.window = window;
        this.revisions = pacing == Pacing.SLIDING ? new long[2 * window] : null;
        this.mask = 2 * window - 1;
    }

    /**
     * Counts one put sent and waits as the pacing says: at each window boundary for every put
     * ({@link Pacing#DRAIN}), or while the window is full for the oldest put ({@link Pacing#SLIDING}).
     * Producer thread; allocates nothing.
     */
    public void sent()
    {
        final long count = ++sent;
        if (pacing == Pacing.DRAIN)
        {
            if ((count & (window - 1)) == 0)
            {
                awaitAll();
            }
        }
        else if (count > window)
        {
            awaitReceived(count - window);
        }
    }

    private void awaitReceived(final long put)
    {
        idle.reset();
        while (acknowledged.get() < put)
        {
            idle.idle();
        }
        final long revision = revisions[(int)(put & mask)];
        while (watcher.receivedThrough() < revision)
        {
            idle.idle();
        }
    }

    /**
     * Waits until every put sent so far was acknowledged and, with a watcher, received by it.
     * Producer thread; allocates nothing.
     */
    public void awaitAll()
    {
        idle.reset();
        while (acknowledged.get() < sent)
        {
            idle.idle();
        }
        final long lastSent = lastRevision;
        while (watcher.receivedThrough() < lastSent)
        {
            idle.idle();
        }
    }

    /**
     * @return puts acknowledged so far, failed ones included. Any thread.
     */
    public long acknowledged()
    {
        return acknowledged.get();
    }

    /**
     * @return puts the engine refused. Any thread.
     */
    public long failed()
    {
        return failed.get();
    }

    /**
     * @return the first refusal's reason, or null. Any thread.
     */
    public RingWatchException firstFailure()
    {
        return firstFailure;
    }

    /**
     * Counts one acknowledged put. Writer thread; allocates nothing.
     *
     * @param revision  the store revision after the put.
     * @param succeeded always true for an unconditional put.
     * @param deleted   always 0 for a put.
     */
    @Override
    public void onWritten(final long revision, final boolean succeeded, final long deleted)
    {
        lastRevision = revision;
        final long count = ++acknowledgedByWriter;
        if (revisions != null)
        {
            revisions[(int)(count & mask)] = revision;
        }
        // The writer thread is the only one counting, so an ordered store publishes the count (and the revision).
        acknowledged.lazySet(count);
    }

    /**
     * Counts one refused put, which is acknowledged too, and keeps the first reason. Writer thread.
     *
     * @param error why the put was not applied.
     */
    @Override
    public void onFailed(final RingWatchException error)
    {
        if (firstFailure == null)
        {
            firstFailure = error;
        }
        failed.lazySet(failed.get() + 1);
        final long count = ++acknowledgedByWriter;
        if (revisions != null)
        {
            // No revision to wait for: the producer may go on at once.
            revisions[(int)(count & mask)] = 0;
        }
        acknowledged.lazySet(count);
    }
}
