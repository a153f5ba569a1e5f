package io.ringwatch.informer;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * A lister-watcher for tests that can hold the informer's thread inside its next poll, so a test
 * can write while the informer reads nothing (its watch falls behind the window for certain), and
 * can run an action between a list and the watch that follows it.
 */
final class StallingListerWatcher implements ListerWatcher
{
    private final ListerWatcher delegate;
    private boolean stallRequested;
    private boolean stalled;
    private LongConsumer betweenListAndWatch;
    private RangeResult servedOnce;
    private volatile long lists;

    StallingListerWatcher(final ListerWatcher delegate)
    {
        this.delegate = delegate;
    }

    /**
     * Holds the informer's thread in its next poll and waits until it is held.
     */
    synchronized void stallAndWait() throws InterruptedException
    {
        stallRequested = true;
        final long deadline = System.nanoTime() + Await.PATIENCE.toNanos();
        while (!stalled && System.nanoTime() < deadline)
        {
            TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
        }
        if (!stalled)
        {
            throw new IllegalStateException("the informer never polled");
        }
    }

    synchronized void release()
    {
        stallRequested = false;
        notifyAll();
    }

    /**
     * Runs {@code action} once, with the list's revision, after the next list and before its
     * watch starts.
     */
    synchronized void onceBetweenListAndWatch(final LongConsumer action)
    {
        betweenListAndWatch = action;
    }

    /**
     * Answers the next list with {@code result} instead of asking the engine.
     */
    synchronized void serveOnce(final RangeResult result)
    {
        servedOnce = result;
    }

    long lists()
    {
        return lists;
    }

    @Override
    public RangeResult list()
    {
        lists++;
        synchronized (this)
        {
            final RangeResult served = servedOnce;
            servedOnce = null;
            if (served != null)
            {
                return served;
            }
        }
        return delegate.list();
    }

    @Override
    public PullWatcher watch(final long fromRevision)
    {
        final LongConsumer action;
        synchronized (this)
        {
            action = betweenListAndWatch;
            betweenListAndWatch = null;
        }
        if (action != null)
        {
            action.accept(fromRevision - 1);
        }
        return new Stalling(delegate.watch(fromRevision));
    }

    private synchronized void holdIfAsked()
    {
        final long deadline = System.nanoTime() + Await.PATIENCE.toNanos();
        while (stallRequested && System.nanoTime() < deadline)
        {
            stalled = true;
            notifyAll();
            try
            {
                TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        stalled = false;
    }

    /** Forwards to the real watcher, holding the poller first when asked. */
    private final class Stalling implements PullWatcher
    {
        private final PullWatcher watcher;

        Stalling(final PullWatcher watcher)
        {
            this.watcher = watcher;
        }

        @Override
        public long startRevision()
        {
            return watcher.startRevision();
        }

        @Override
        public long position()
        {
            return watcher.position();
        }

        @Override
        public int poll(final WatchListener handler, final int maxEvents)
        {
            holdIfAsked();
            return watcher.poll(handler, maxEvents);
        }

        @Override
        public WatchResponse next(final Duration timeout) throws InterruptedException
        {
            holdIfAsked();
            return watcher.next(timeout);
        }

        @Override
        public void wakeWith(final Doorbell doorbell)
        {
            watcher.wakeWith(doorbell);
        }

        @Override
        public long id()
        {
            return watcher.id();
        }

        @Override
        public WatchRequest request()
        {
            return watcher.request();
        }

        @Override
        public void cancel()
        {
            watcher.cancel();
        }

        @Override
        public boolean isCancelled()
        {
            return watcher.isCancelled();
        }

        @Override
        public WatchCancellation cancellation()
        {
            return watcher.cancellation();
        }

        @Override
        public void requestProgress()
        {
            watcher.requestProgress();
        }
    }
}
