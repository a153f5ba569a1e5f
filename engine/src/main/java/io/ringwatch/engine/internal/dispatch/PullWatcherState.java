package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.ProgressMark;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.ringbuffer.WatchWindow;

import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A pull watcher: its owner drains it with {@link #poll} or {@link #next}. The dispatcher wakes
 * an owner blocked in {@code next} by unparking it, and rings the doorbell an owner that polls
 * gave it ({@link #wakeWith}) and marks the ready entry it gave ({@link #readyIn}): engine code
 * only, never the owner's. Polling uses a batch held per polling thread, so a million idle pull
 * watchers hold no batch memory.
 */
final class PullWatcherState extends WatcherState implements PullWatcher
{
    private volatile Thread waiter;
    private volatile Doorbell doorbell;
    private volatile ReadyQueue.Entry<?> readyEntry;

    PullWatcherState(
        final long id,
        final WatchRequest request,
        final long startRevision,
        final ShardContext shard,
        final IndexFunction indexFunction)
    {
        super(id, request, startRevision, shard, indexFunction);
    }

    @Override
    boolean signal()
    {
        // The queue offer was a release store; without a full fence this read of the waiter could
        // pass it, and a consumer that saw an empty queue and then parked would miss the wake-up.
        VarHandle.fullFence();
        final Thread parked = waiter;
        if (parked != null)
        {
            LockSupport.unpark(parked);
        }
        final Doorbell bell = doorbell;
        if (bell != null)
        {
            bell.ringAfterFence();
        }
        final ReadyQueue.Entry<?> entry = readyEntry;
        if (entry != null)
        {
            entry.mark();
        }
        return true;
    }

    @Override
    public void readyIn(final ReadyQueue.Entry<?> entry)
    {
        readyEntry = entry;
        // As wakeWith: work handed over before the entry was set marked nothing.
        if (entry != null)
        {
            VarHandle.fullFence();
            entry.mark();
        }
    }

    @Override
    public boolean inStep()
    {
        final WatcherConsumer own = consumerSide();
        return (own == null || own.mode() == WatcherConsumer.SYNCED) && !isCatchUpRequested();
    }

    @Override
    public void wakeWith(final Doorbell doorbell)
    {
        this.doorbell = doorbell;
        // Work handed over before the doorbell was set rang nothing: one ring covers it (the owner
        // polls after it), at the price of a spare look when there was none.
        if (doorbell != null)
        {
            doorbell.ring();
        }
    }

    @Override
    public int poll(final WatchListener handler, final int maxEvents)
    {
        if (handler == null)
        {
            throw new InvalidRequestException("handler must not be null");
        }
        if (maxEvents <= 0)
        {
            throw new InvalidRequestException("max events must be positive: " + maxEvents);
        }
        final int delivered = drain(handler, shard.pollBatches.get(), maxEvents);
        final WatcherConsumer own = consumerSide();
        if (own != null && own.stoppedAtReadLimit())
        {
            // A catch-up read its bound and has more to read: no dispatcher hands that over, so the
            // watcher marks itself, and an owner polling only marked watchers comes back.
            signal();
        }
        return delivered;
    }

    @Override
    public WatchResponse next(final Duration timeout) throws InterruptedException
    {
        if (timeout == null || timeout.isNegative())
        {
            throw new InvalidRequestException("timeout must be zero or positive: " + timeout);
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        final Collector collector = new Collector();
        while (true)
        {
            poll(collector, Integer.MAX_VALUE);
            if (collector.hasAny())
            {
                return collector.response();
            }
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                return collector.response();
            }
            waiter = Thread.currentThread();
            try
            {
                if (!hasSomethingToDeliver())
                {
                    LockSupport.parkNanos(this, remaining);
                }
            }
            finally
            {
                waiter = null;
            }
            if (Thread.interrupted())
            {
                throw new InterruptedException("interrupted while waiting for watch events");
            }
        }
    }

    /**
     * Copies what one {@code next} call drains, each progress notification marked where it fell
     * among the events (a mark per notification, none per event).
     */
    private static final class Collector implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();
        private List<ProgressMark> marks = List.of();
        private WatchCancellation cancellation;

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            if (marks.isEmpty())
            {
                marks = new ArrayList<>(2);
            }
            marks.add(new ProgressMark(events.size(), revision));
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        boolean hasAny()
        {
            return !events.isEmpty() || !marks.isEmpty() || cancellation != null;
        }

        WatchResponse response()
        {
            return new WatchResponse(events, marks, cancellation);
        }
    }
}
