package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.watch.CancelReason;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

import java.util.ArrayDeque;

/**
 * Calls push listeners. Dispatchers put watchers that have something to deliver on this
 * worker's ready queue; the worker drains each in turn, at most one batch per turn so a busy
 * watcher cannot starve the others.
 *
 * <p>A listener that stays inside one call longer than the slow-listener timeout would hold up
 * every other watcher of this worker, and no thread can be pulled out of user code. So the
 * housekeeper ({@link #checkStuck}) cancels that watcher with
 * {@link CancelReason#SLOW_LISTENER} and hands the worker's queue to a fresh thread; the stuck
 * thread, when it finally returns, sees it is no longer the owner and exits. Allocates nothing
 * per event; a replacement thread is the one allocation, and only when a listener misbehaves.
 */
final class DeliveryWorker
{
    private static final int READY_QUEUE_CAPACITY = 1 << 16;

    private final String name;
    private final int batchSize;
    private final IdleStrategy idleStrategy;
    private final Doorbell doorbell;
    private final long slowListenerNanos;
    private final ManyToOneConcurrentArrayQueue<PushWatcherState> ready =
        new ManyToOneConcurrentArrayQueue<>(READY_QUEUE_CAPACITY);
    private final ArrayDeque<PushWatcherState> again = new ArrayDeque<>();
    private EventBatchView batch;
    private volatile Thread owner;
    private volatile boolean closing;
    private volatile PushWatcherState inCall;
    private volatile long callStartNanos;
    private int generation;

    /**
     * @param doorbell wakes the worker's thread when it parks in {@code idleStrategy}; the
     *                 dispatchers ring it once per batch in which they scheduled watchers here.
     */
    DeliveryWorker(
        final String name,
        final int batchSize,
        final IdleStrategy idleStrategy,
        final Doorbell doorbell,
        final long slowListenerNanos)
    {
        this.name = name;
        this.batchSize = batchSize;
        this.idleStrategy = idleStrategy;
        this.doorbell = doorbell;
        this.slowListenerNanos = slowListenerNanos;
    }

    void start()
    {
        startThread();
    }

    /**
     * @param watcher a watcher with something to deliver.
     * @return false when the ready queue is full and the caller must retry later.
     */
    boolean schedule(final PushWatcherState watcher)
    {
        return ready.offer(watcher);
    }

    /**
     * Housekeeper check: replaces this worker's thread if a listener has overstayed its call.
     *
     * @param nowNanos the housekeeper's clock.
     */
    void checkStuck(final long nowNanos)
    {
        final PushWatcherState stuck = inCall;
        if (stuck != null && nowNanos - callStartNanos > slowListenerNanos && inCall == stuck)
        {
            stuck.abandon();
            stuck.terminate(CancelReason.SLOW_LISTENER, 0, null,
                "the listener stayed in one call longer than " + slowListenerNanos / 1_000_000 + " ms");
            inCall = null;
            startThread();
        }
    }

    /**
     * Delivers what is queued, then stops the worker's thread; waits at most {@code timeoutNanos}.
     *
     * @param timeoutNanos the longest to wait for the queue to drain.
     */
    void close(final long timeoutNanos)
    {
        closing = true;
        doorbell.ring();
        final Thread thread = owner;
        if (thread != null)
        {
            try
            {
                thread.join(Math.max(1, timeoutNanos / 1_000_000));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void startThread()
    {
        // Each thread gets its own batch: a stuck predecessor may still hold the old one.
        batch = new EventBatchView(batchSize);
        final EventBatchView threadBatch = batch;
        final Thread thread = new Thread(() -> run(threadBatch), name + "-" + generation++);
        thread.setDaemon(true);
        owner = thread;
        thread.start();
    }

    private void run(final EventBatchView threadBatch)
    {
        final Thread self = Thread.currentThread();
        while (owner == self)
        {
            final PushWatcherState watcher = nextReady();
            if (watcher == null)
            {
                if (closing)
                {
                    return;
                }
                idleStrategy.idle(0);
                continue;
            }
            idleStrategy.reset();
            deliver(watcher, threadBatch);
            if (owner != self)
            {
                return;
            }
            if (watcher.hasSomethingToDeliver() && !watcher.signal())
            {
                again.offer(watcher);
            }
        }
    }

    private PushWatcherState nextReady()
    {
        final PushWatcherState watcher = ready.poll();
        return watcher != null ? watcher : again.poll();
    }

    private void deliver(final PushWatcherState watcher, final EventBatchView threadBatch)
    {
        if (watcher.isAbandoned())
        {
            // Its stuck thread is still inside it and will deliver the cancellation on return.
            return;
        }
        watcher.unschedule();
        callStartNanos = System.nanoTime();
        inCall = watcher;
        try
        {
            watcher.drain(watcher.listener(), threadBatch, batchSize);
        }
        finally
        {
            inCall = null;
        }
    }
}
