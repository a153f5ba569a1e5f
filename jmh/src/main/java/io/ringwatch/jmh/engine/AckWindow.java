package io.ringwatch.jmh.engine;

import io.ringwatch.engine.RingWatchException;
import io.ringwatch.engine.write.WriteCallback;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One producer's pre-allocated callback for all its asynchronous puts, bounding how many are in
 * flight: the producer calls {@link #sent()} after each put and, every {@value #WINDOW} puts, waits
 * until the writer has acknowledged every one, so at most {@value #WINDOW} are outstanding and the
 * ring, not an unbounded backlog, absorbs bursts. A window given a watcher's {@link WatchProgress}
 * also waits until the watcher has received the last of them, so the producer runs at most
 * {@value #WINDOW} puts ahead of the watch path, as a bounded watcher queue would hold it, instead of
 * outrunning it until the watch window laps the watcher.
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
        this.watcher = watcher;
    }

    /**
     * Counts one put sent and, at each window boundary, waits for the writer to catch up. Producer
     * thread; allocates nothing.
     */
    public void sent()
    {
        if ((++sent & (WINDOW - 1)) == 0)
        {
            awaitAll();
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
        // The writer thread is the only one counting, so an ordered store publishes the count.
        acknowledged.lazySet(++acknowledgedByWriter);
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
        acknowledged.lazySet(++acknowledgedByWriter);
    }
}
