package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.spi.History;
import io.ringwatch.ringbuffer.WatchWindow;

import java.util.function.LongSupplier;

/**
 * What every watcher of one dispatcher shard shares: its dispatcher, the window and history it reads, how
 * long a cancel waits for the consumer, the delivery pool of push watchers and the batch views of pull
 * watchers. One object per shard, referenced by each watcher, so that a million idle watchers hold one
 * reference each instead of six fields each (about 20 bytes a watcher).
 *
 * <p>Threads: immutable once built, any thread. Allocation: none after construction.
 */
final class ShardContext
{
    final Dispatcher dispatcher;
    final WatchWindow window;
    final History history;
    final long cancelWaitNanos;
    final DeliveryPool pool;
    final ThreadLocal<EventBatchView> pollBatches;
    /** The engine's live watchers and cancel counts: touched when a watcher starts and ends. */
    final LiveWatchers live;
    /** The engine's compaction point: a watcher reading by cursor before it is cancelled COMPACTED. */
    final LongSupplier compactRevision;

    /**
     * @param dispatcher      the shard's dispatcher.
     * @param window          the window its watchers read.
     * @param history         the history they catch up from.
     * @param cancelWaitNanos how long a cancel waits for a consumer inside the watcher to leave.
     * @param pool            the pool that delivers to push watchers.
     * @param pollBatches     each polling thread's batch view for pull watchers.
     * @param live            the engine's live watchers.
     * @param compactRevision the engine's compaction point.
     */
    ShardContext(
        final Dispatcher dispatcher,
        final WatchWindow window,
        final History history,
        final long cancelWaitNanos,
        final DeliveryPool pool,
        final ThreadLocal<EventBatchView> pollBatches,
        final LiveWatchers live,
        final LongSupplier compactRevision)
    {
        this.live = live;
        this.dispatcher = dispatcher;
        this.window = window;
        this.history = history;
        this.cancelWaitNanos = cancelWaitNanos;
        this.pool = pool;
        this.pollBatches = pollBatches;
        this.compactRevision = compactRevision;
    }
}
