package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.WatchCancellation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The engine's watchers as an operator sees them: every live watcher by id, and how many ended
 * for each reason. Only the edges of a watcher's life touch it (its admission, its end), never an
 * event, so it costs the dispatch path nothing. Watch ids are handed out in sequence, so the live
 * watchers sit in chunks of {@value #CHUNK} slots indexed by id: 4 bytes per watcher (a hash map
 * entry and a boxed id cost about 60, which would have been 40% of an idle watcher). A chunk is
 * dropped once every id in it has ended.
 *
 * <p>Threads: any. Views are read racily from fields the dispatcher and the consumer write (see
 * {@link WatcherView}). Allocation: a chunk per {@value #CHUNK} watch ids; {@link #views} allocates its
 * list.
 */
final class LiveWatchers
{
    private static final CancelReason[] REASONS = CancelReason.values();

    private static final int SHIFT = 12;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private final AtomicLongArray cancelled = new AtomicLongArray(REASONS.length);
    private final Object resizing = new Object();
    /** Chunk i holds the watchers with ids [i * CHUNK, (i + 1) * CHUNK); replaced under {@link #resizing}. */
    private volatile Chunk[] chunks = new Chunk[16];

    /** A watcher is admitted: before anyone else can end it. */
    void added(final WatcherState watcher)
    {
        final long id = watcher.id();
        chunk((int)(id >>> SHIFT)).slots.set((int)id & MASK, watcher);
    }

    /** A watcher ended with {@code reason}: the one call that won its termination. */
    void ended(final WatcherState watcher, final CancelReason reason)
    {
        final long id = watcher.id();
        final int index = (int)(id >>> SHIFT);
        final Chunk[] current = chunks;
        final Chunk chunk = index < current.length ? current[index] : null;
        if (chunk != null)
        {
            chunk.slots.set((int)id & MASK, null);
            if (chunk.ended.incrementAndGet() == CHUNK)
            {
                synchronized (resizing)
                {
                    chunks[index] = null;
                }
            }
        }
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
     * @return live watchers in it now; allocates nothing but a counter.
     */
    int count(final WatcherView.State state)
    {
        final int[] count = {0};
        forEachLive(watcher ->
        {
            if (stateOf(watcher) == state)
            {
                count[0]++;
            }
        });
        return count[0];
    }

    /**
     * @param currentRevision the engine's current revision, to compute lags against.
     * @return the largest lag of a live watcher, as {@link WatcherView#lag()} would say; 0 with none.
     * Allocates nothing but a holder: a metrics scrape over a million watchers makes no views.
     */
    long maxLag(final long currentRevision)
    {
        final long[] max = {0};
        forEachLive(watcher ->
        {
            final WatcherView.State state = stateOf(watcher);
            if (state != WatcherView.State.CANCELLED)
            {
                max[0] = Math.max(max[0], currentRevision - position(watcher, state, queued(watcher)));
            }
        });
        return max[0];
    }

    /**
     * @param currentRevision the engine's current revision, to compute lags against.
     * @return a view of every live watcher, by id; allocates.
     */
    List<WatcherView> views(final long currentRevision)
    {
        final ArrayList<WatcherView> views = new ArrayList<>();
        forEachLive(watcher -> views.add(view(watcher, currentRevision)));
        return Collections.unmodifiableList(views);
    }

    /** Visits the live watchers in id order; each slot is read once, racily. */
    private void forEachLive(final Consumer<WatcherState> visitor)
    {
        for (final Chunk chunk : chunks)
        {
            if (chunk == null)
            {
                continue;
            }
            for (int i = 0; i < CHUNK; i++)
            {
                final WatcherState watcher = chunk.slots.get(i);
                if (watcher != null)
                {
                    visitor.accept(watcher);
                }
            }
        }
    }

    /** The chunk for ids starting at {@code index * CHUNK}, created (and the table grown) if absent. */
    private Chunk chunk(final int index)
    {
        final Chunk[] current = chunks;
        if (index < current.length && current[index] != null)
        {
            return current[index];
        }
        synchronized (resizing)
        {
            Chunk[] table = chunks;
            if (index >= table.length)
            {
                table = Arrays.copyOf(table, Math.max(index + 1, table.length * 2));
            }
            if (table[index] == null)
            {
                table[index] = new Chunk();
            }
            chunks = table;
            return table[index];
        }
    }

    private static WatcherView view(final WatcherState watcher, final long currentRevision)
    {
        final WatcherView.State state = stateOf(watcher);
        final WatchCancellation cancellation = watcher.cancellation();
        final int queued = queued(watcher);
        final long position = position(watcher, state, queued);
        return new WatcherView(watcher.id(), watcher instanceof PushWatcherState, watcher.request(),
            watcher.startRevision(), position, Math.max(0, currentRevision - position), queued, state,
            cancellation == null ? null : cancellation.reason());
    }

    private static int queued(final WatcherState watcher)
    {
        final PendingQueue queue = watcher.pending();
        return queue == null ? 0 : queue.size();
    }

    /**
     * @param watcher a watcher.
     * @return the revision up to which it has been handed every event it wants, read racily.
     */
    static long position(final WatcherState watcher)
    {
        return position(watcher, stateOf(watcher), queued(watcher));
    }

    /** The revision up to which {@code watcher} has been handed every event it wants, read racily. */
    private static long position(final WatcherState watcher, final WatcherView.State state, final int queued)
    {
        // The consumer's side, read racily: each a value the consumer wrote.
        final WatcherConsumer consumer = watcher.consumerSide();
        long position = consumer == null ? watcher.startRevision() - 1 : consumer.deliveredThrough();
        if (state == WatcherView.State.SYNCED && queued == 0 && watcher.isRouted())
        {
            // Nothing queued on the routes: it has every event its dispatcher has routed.
            position = Math.max(position, watcher.shard.dispatcher.completeRevision());
        }
        return Math.max(position, watcher.startRevision() - 1);
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
            case WatcherConsumer.SYNCED:
                // Taken off the routes, its consumer not yet told: it already reads no routed events.
                return watcher.isCatchUpRequested() ? WatcherView.State.CATCHING_UP : WatcherView.State.SYNCED;
            case WatcherConsumer.REJOINING:
                return WatcherView.State.REJOINING;
            default:
                return WatcherView.State.SYNCED;
        }
    }

    /** {@value #CHUNK} consecutive ids' watchers, and how many of those ids have ended. */
    private static final class Chunk
    {
        final AtomicReferenceArray<WatcherState> slots = new AtomicReferenceArray<>(CHUNK);
        final AtomicInteger ended = new AtomicInteger();
    }
}
