package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchCancellation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The engine's watchers as an operator sees them: every live watcher by id, and how many ended
 * for each reason. Only the edges of a watcher's life touch it (its admission, its end), never an
 * event, so it costs the dispatch path nothing: a map put when a watch starts, a map remove and a
 * counter increment when it ends.
 *
 * <p>Threads: any. Views are read racily from fields the dispatcher and the consumer write (see
 * {@link WatcherView}). Allocation: a map entry per live watcher; {@link #views} allocates its list.
 */
final class LiveWatchers
{
    private static final CancelReason[] REASONS = CancelReason.values();

    private final ConcurrentHashMap<Long, WatcherState> live = new ConcurrentHashMap<>();
    private final AtomicLongArray cancelled = new AtomicLongArray(REASONS.length);

    /** A watcher is admitted: before anyone else can end it. */
    void added(final WatcherState watcher)
    {
        live.put(watcher.id(), watcher);
    }

    /** A watcher ended with {@code reason}: the one call that won its termination. */
    void ended(final WatcherState watcher, final CancelReason reason)
    {
        live.remove(watcher.id());
        cancelled.incrementAndGet(reason.ordinal());
    }

    /**
     * @param reason a cancel reason.
     * @return watchers that ended for it.
     */
    long cancelledCount(final CancelReason reason)
    {
        return cancelled.get(reason.ordinal());
    }

    /**
     * @param state a state.
     * @return live watchers in it now; no allocation.
     */
    int count(final WatcherView.State state)
    {
        int count = 0;
        for (final WatcherState watcher : live.values())
        {
            if (stateOf(watcher) == state)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @param currentRevision the engine's current revision, to compute lags against.
     * @return a view of every live watcher, by id; allocates.
     */
    List<WatcherView> views(final long currentRevision)
    {
        final ArrayList<WatcherView> views = new ArrayList<>(live.size());
        for (final WatcherState watcher : live.values())
        {
            views.add(view(watcher, currentRevision));
        }
        views.sort((a, b) -> Long.compare(a.id(), b.id()));
        return Collections.unmodifiableList(views);
    }

    private static WatcherView view(final WatcherState watcher, final long currentRevision)
    {
        final WatcherView.State state = stateOf(watcher);
        final WatchCancellation cancellation = watcher.cancellation();
        final PendingQueue queue = watcher.pending();
        final int queued = queue == null ? 0 : queue.size();
        // The consumer's side, read racily: each a value the consumer wrote.
        final WatcherConsumer consumer = watcher.consumerSide();
        long position = consumer == null ? watcher.startRevision() - 1 : consumer.deliveredThrough();
        if (state == WatcherView.State.SYNCED && queued == 0 && watcher.isRouted())
        {
            // Nothing queued on the routes: it has every event its dispatcher has routed.
            position = Math.max(position, watcher.shard.dispatcher.completeRevision());
        }
        position = Math.max(position, watcher.startRevision() - 1);
        return new WatcherView(watcher.id(), watcher instanceof PushWatcherState, watcher.request(),
            watcher.startRevision(), position, Math.max(0, currentRevision - position), queued, state,
            cancellation == null ? null : cancellation.reason());
    }

    private static WatcherView.State stateOf(final WatcherState watcher)
    {
        if (watcher.isCancelled())
        {
            return WatcherView.State.CANCELLED;
        }
        final WatcherConsumer consumer = watcher.consumerSide();
        switch (consumer == null ? WatcherConsumer.SYNCED : consumer.mode())
        {
            case WatcherConsumer.CATCHING_UP:
                return WatcherView.State.CATCHING_UP;
            case WatcherConsumer.REJOINING:
                return WatcherView.State.REJOINING;
            default:
                return WatcherView.State.SYNCED;
        }
    }
}
