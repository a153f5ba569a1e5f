package io.ringwatch.engine;

import io.ringwatch.engine.internal.dispatch.WatchHub;
import io.ringwatch.engine.internal.durable.Snapshotter;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.write.WritePipeline;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.engine.stats.TimingCounter;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.ringbuffer.WatchWindow;

/**
 * {@link EngineStats} over an engine's parts: each figure is read where the part keeps it, when
 * asked. Any thread; no allocation; never touches the index's memory (its size is a field), so it
 * is safe after close too (the figures then stay as they were).
 */
final class RingWatchStats implements EngineStats
{
    private final RingWatch engine;
    private final OffHeapIndex index;
    private final WatchWindow window;
    private final WatchHub watches;
    private final WritePipeline writes;
    private final Snapshotter snapshotter;

    RingWatchStats(
        final RingWatch engine,
        final OffHeapIndex index,
        final WatchWindow window,
        final WatchHub watches,
        final WritePipeline writes,
        final Snapshotter snapshotter)
    {
        this.engine = engine;
        this.index = index;
        this.window = window;
        this.watches = watches;
        this.writes = writes;
        this.snapshotter = snapshotter;
    }

    @Override
    public String engineName()
    {
        return engine.name();
    }

    @Override
    public long currentRevision()
    {
        return engine.currentRevision();
    }

    @Override
    public long compactRevision()
    {
        return engine.compactRevision();
    }

    @Override
    public long keys()
    {
        return index.size();
    }

    @Override
    public long windowOldestRevision()
    {
        final long oldest = window.oldestRevision();
        return oldest == 0 ? window.publishedRevision() + 1 : oldest;
    }

    @Override
    public long windowSize()
    {
        final long published = window.publishedSequence();
        return Math.max(0, published + 1 - window.oldestSequence());
    }

    @Override
    public int windowCapacity()
    {
        return window.capacity();
    }

    @Override
    public long windowGrowCount()
    {
        return window.growCount();
    }

    @Override
    public long windowShrinkCount()
    {
        return window.shrinkCount();
    }

    @Override
    public int watcherCount()
    {
        return watches.watcherCount();
    }

    @Override
    public int watchersIn(final WatcherView.State state)
    {
        return watches.watcherCount(state);
    }

    @Override
    public long maxWatcherLag()
    {
        return watches.maxLag(engine.currentRevision());
    }

    @Override
    public long cancelledWatchers(final CancelReason reason)
    {
        return watches.cancelledCount(reason);
    }

    @Override
    public long pendingEntries()
    {
        return watches.pendingEntries();
    }

    @Override
    public long pendingBudget()
    {
        return watches.pendingBudget();
    }

    @Override
    public TimingCounter journalAppends()
    {
        return writes.journalAppends();
    }

    @Override
    public TimingCounter journalFlushes()
    {
        return writes.journalFlushes();
    }

    @Override
    public TimingCounter snapshots()
    {
        return snapshotter == null ? null : snapshotter.durations();
    }

    @Override
    public int deliveryThreads()
    {
        return watches.deliveryThreads();
    }

    @Override
    public long deliveryThreadsReplaced()
    {
        return watches.deliveryThreadsReplaced();
    }

    @Override
    public String toString()
    {
        return "EngineStats{" + engineName() + ", revision=" + currentRevision() + ", keys=" + keys() +
            ", window=" + windowSize() + "/" + windowCapacity() + " from " + windowOldestRevision() +
            ", watchers=" + watcherCount() + ", pending=" + pendingEntries() + "/" + pendingBudget() + "}";
    }
}
