package io.ringwatch.jmh.engine;

import io.ringwatch.baseline.ChangeEvent;
import io.ringwatch.baseline.LockedWatchStore;
import io.ringwatch.baseline.Routing;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The locked j.u.c. baseline ({@link LockedWatchStore}, shared with the load harness) with one
 * watcher of every key: a bounded {@link LinkedBlockingQueue} drained by a background thread that
 * counts. The queue is bounded like the engine's pending events and a full queue makes the writer
 * wait (under the store's lock), so, as in the engine, no event is lost.
 * <p>
 * {@link #put} may be called from any thread; it allocates what {@link LockedWatchStore#put} does
 * and a queue node. {@link #close()} stops the drainer.
 */
final class LockedBroadcastStore implements AutoCloseable
{
    private static final int QUEUE_CAPACITY = 64 * 1024;
    private static final long POLL_NANOS = 1_000_000;
    /** How long a tear-down waits for the drainer: a safety net, not a measurement. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private final LockedWatchStore store = new LockedWatchStore(Routing.HASHED);
    private final BlockingQueue<ChangeEvent> watcherQueue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong drained = new AtomicLong();
    private final Thread drainer = new Thread(this::drain, "locked-broadcast-drainer");

    /**
     * Starts the drainer thread and registers its queue as the watcher of every key. Any thread;
     * allocates the store, the queue and the thread.
     */
    LockedBroadcastStore()
    {
        store.watchPrefix(new byte[0], event ->
        {
            watcherQueue.put(event);
            return true;
        });
        drainer.setDaemon(true);
        drainer.start();
    }

    /**
     * Starts a store and writes every key of {@code keys} once, so that measured puts are updates.
     * Any thread; allocates the store and its entries.
     *
     * @param keys the key set and its cursor, advanced past every key.
     * @return the store.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    static LockedBroadcastStore withEveryKey(final WriteKeys keys) throws InterruptedException
    {
        final LockedBroadcastStore store = new LockedBroadcastStore();
        for (int i = 0; i < WriteKeys.KEY_COUNT; i++)
        {
            store.put(keys.key(keys.next()), keys.value());
        }
        return store;
    }

    /**
     * Stores a copy of the key's new value and queues its event for the watcher. Any thread;
     * allocates (see the class comment).
     *
     * @param key   the key.
     * @param value the value.
     * @return the revision of the put.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    long put(final byte[] key, final byte[] value) throws InterruptedException
    {
        return store.put(key, value);
    }

    /**
     * Waits until the drainer has taken the event of every put so far, or {@code timeout} passed (a
     * safety net, not a measurement). Any thread, once no more puts are made; allocates nothing.
     *
     * @param timeout the longest to wait.
     * @throws IllegalStateException if events are still queued after {@code timeout}.
     */
    private void awaitDrained(final Duration timeout)
    {
        final long expected = store.currentRevision();
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (drained.get() < expected && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(POLL_NANOS);
        }
        if (drained.get() < expected)
        {
            throw new IllegalStateException("drainer took " + drained.get() + " of " + expected + " events");
        }
    }

    /**
     * Waits until the drainer has taken every event ({@link #DRAIN_TIMEOUT} at most), then closes,
     * also when the wait fails: a benchmark's tear-down. Any thread, once no more puts are made.
     *
     * @throws InterruptedException  if interrupted while stopping the drainer.
     * @throws IllegalStateException if events were not drained in time.
     */
    void closeWhenDrained() throws InterruptedException
    {
        try
        {
            awaitDrained(DRAIN_TIMEOUT);
        }
        finally
        {
            close();
        }
    }

    /**
     * Stops the drainer and waits for it to end. Any thread.
     *
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public void close() throws InterruptedException
    {
        drainer.interrupt();
        drainer.join();
    }

    private void drain()
    {
        try
        {
            while (true)
            {
                watcherQueue.take();
                drained.incrementAndGet();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
