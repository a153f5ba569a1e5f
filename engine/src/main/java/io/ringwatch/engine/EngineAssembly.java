package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.dispatch.WatchHub;
import io.ringwatch.engine.internal.durable.Snapshotter;
import io.ringwatch.engine.internal.history.CrashBump;
import io.ringwatch.engine.internal.history.Recovery;
import io.ringwatch.engine.internal.history.TieredHistory;
import io.ringwatch.engine.internal.history.WindowHistory;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.read.HistoricalReader;
import io.ringwatch.engine.internal.read.RangeReader;
import io.ringwatch.engine.internal.secondary.SecondaryIndexes;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.thread.Joins;
import io.ringwatch.engine.internal.write.RevisionCursor;
import io.ringwatch.engine.internal.write.WritePipeline;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * One engine's collaborators, built in dependency order (recovery into the index, the revision
 * cursor and the window at the recovered revision, readers, secondary indexes, watches, the write
 * pipeline, the snapshotter) and closed in the order that lets each finish its work: writes stop
 * first, then delivery, snapshots and the journal, and the index is freed only once the last
 * read has left. The facade ({@link RingWatch}) holds one and only delegates.
 *
 * <p>Built and closed by one thread; the parts are thread-safe as each documents. Allocation: the
 * engine's structures, once.
 */
final class EngineAssembly
{
    private static final Logger LOG = LoggerFactory.getLogger(RingWatch.class);
    private static final Txn NOTHING = Txn.of(List.of(), List.of(), List.of());

    final String name;
    final ReadGate gate = new ReadGate();
    final OffHeapIndex index;
    final RevisionCursor cursor;
    final WatchWindow window;
    final RangeReader reader;
    final HistoricalReader historical;
    final SecondaryIndexes secondary;
    final Compaction compaction;
    final RevisionWait revisionWait;
    final WatchHub watches;
    final WritePipeline writes;
    final Journal journal;
    final Snapshotter snapshotter;
    /** Counted down when the close has finished (or failed). */
    private final CountDownLatch closed = new CountDownLatch(1);

    /**
     * Builds the parts, recovering the index from {@code journal} first when there is one.
     *
     * @param config  sizes, limits and thread strategies.
     * @param journal the revision log, owned from now on, or null in memory.
     * @throws RuntimeException whatever recovery throws, with the index freed again.
     */
    EngineAssembly(final RingWatchConfig config, final Journal journal)
    {
        this.journal = journal;
        this.name = config.name();
        index = new OffHeapIndex(config.indexInitialCapacity());
        final long recovered;
        final long recoveryStart = System.nanoTime();
        try
        {
            recovered = journal == null ? 0 : CrashBump.apply(journal, Recovery.recover(journal, index),
                config.crashRevisionBump(), name);
        }
        catch (final RuntimeException e)
        {
            index.close();
            throw e;
        }
        cursor = new RevisionCursor(recovered);
        compaction = new Compaction(gate, cursor, journal, this::onCompletingThread);
        revisionWait = new RevisionWait(cursor);
        window = new WatchWindow(WindowConfig.builder()
            .minCapacity(config.windowMinCapacity())
            .maxCapacity(config.windowMaxCapacity())
            .freshnessNanos(config.windowFreshness().toNanos())
            .maxEventBytes(config.maxKeyBytes() + 2 * config.maxValueBytes())
            .dataBytesPerEvent(config.windowBytesPerEvent())
            .build(), SystemNanoClock.INSTANCE, recovered);
        final UndoLog undo = new UndoLog(config.consistentReadBudgetBytes(), config.maxKeyBytes() + config.maxValueBytes());
        reader = new RangeReader(index, undo, cursor, journal != null && journal.isSync());
        if (journal != null && journal.isSync())
        {
            // Catching-up watchers and historical reads see no revision before it is durable.
            journal.limitReadersTo(cursor::applied);
        }
        secondary = new SecondaryIndexes(index, window, cursor, undo, this::passThroughWriter);
        watches = new WatchHub(config, window, cursor::applied, compaction::revision, journal, secondary::function);
        writes = new WritePipeline(config, index, window, cursor, secondary.maintainer(), undo, compaction::mark, journal,
            watches.dispatcherDoorbells());
        // The window first: it is published up to the present, which an ASYNC log may not have appended yet.
        historical = new HistoricalReader(reader, journal != null ? new TieredHistory(window, journal) : new WindowHistory(window),
            writes::onCompletingThread);
        snapshotter = journal != null && journal.keepsSnapshots() ?
            new Snapshotter(name + "-snapshotter", journal, index, cursor, config.snapshotEveryRevisions()) : null;
        if (journal == null)
        {
            LOG.info("{}: opened in memory", name);
        }
        else
        {
            LOG.info("{}: opened over a revision log ({}): recovered {} keys up to revision {} (log from revision {}, compacted at {}) in {} ms",
                name, journal.isSync() ? "SYNC" : "ASYNC", index.size(), recovered, journal.firstRevision(),
                compaction.revision(), (System.nanoTime() - recoveryStart) / 1_000_000);
        }
    }

    /**
     * Closes the engine once: refuses new calls, stops the writer, then delivery, snapshots and
     * the journal, waits for the reads inside to leave, and frees the secondary indexes and the
     * index. Idempotent; any thread. Called on a thread the close must wait for and that runs user
     * code (the thread that completes writes, inside a write's completion or callback or an index
     * function on the writer; a caller inside {@code addIndex} or {@code byIndex}, in an index
     * function those run on its thread; a dispatcher, in an index function routing a watch by
     * index), it refuses new calls and returns at once, and the rest
     * runs on a thread of its own ({@code <name>-closer}) once that thread is free. A later call
     * waits until the close is done, except on a thread the close waits for (those, a dispatcher,
     * a delivery thread), where it returns at once.
     */
    void close()
    {
        if (!gate.close())
        {
            if (!onEngineThread() && !gate.runningUserCodeHere())
            {
                Joins.awaitUninterruptibly(closed);
            }
            return;
        }
        if (writes.onCompletingThread() || gate.runningUserCodeHere() || watches.onDispatcherThread())
        {
            final Thread closer = new Thread(this::closeParts, name + "-closer");
            closer.setDaemon(true);
            closer.start();
            return;
        }
        closeParts();
    }

    /** @return true on the thread that completes writes (a compaction there must not wait for the journal). */
    private boolean onCompletingThread()
    {
        return writes.onCompletingThread();
    }

    private boolean onEngineThread()
    {
        return writes.onCompletingThread() || watches.onOwnThread();
    }

    private void closeParts()
    {
        try
        {
            writes.close();
            watches.close();
            try
            {
                if (snapshotter != null)
                {
                    snapshotter.close();
                }
            }
            finally
            {
                if (journal != null)
                {
                    journal.close();
                }
            }
            gate.awaitNoneInside();
            secondary.close();
            final long keys = index.size();
            index.close();
            LOG.info("{}: closed at revision {} with {} keys", name, cursor.applied(), keys);
        }
        finally
        {
            closed.countDown();
        }
    }

    /** Runs one empty command through the writer: it adopts published index changes first. */
    private void passThroughWriter()
    {
        writes.txn(NOTHING);
    }
}
