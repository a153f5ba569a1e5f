package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.SnapshotOutput;
import io.ringwatch.engine.stats.TimingCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Writes index snapshots beside the journal ({@link Journal#newSnapshot}) so that a restart
 * replays only the revisions after the newest one. Every {@code everyRevisions} revisions a background thread takes a fuzzy
 * snapshot while the writer goes on: it notes the durable revision S (what the log holds, never
 * ahead of it), scans the whole index and records the snapshot as of S. Keys that changed during
 * the scan may be caught at a later state, which is harmless once the log holds that state too:
 * recovery replays every change after S over the snapshot, and each change carries its key's
 * whole state.
 * <p>
 * The index runs ahead of the log (the writer applies a revision before the journal stage appends
 * and forces it), so the scan may see revisions the log does not hold yet. A snapshot committed
 * then and followed by a crash would bring back revisions that were never durable nor
 * acknowledged, and recovery would number new writes over them. So a scanned snapshot stays
 * pending until the log is durable up to the writer's revision when the scan ended (an upper bound
 * of what it saw); it is committed at the next poll after that, and abandoned if a journal
 * failure's roll-back overlapped it. The retention of the log keeps everything after the newest
 * snapshot. Allocates a writer per snapshot and nothing per key.
 */
public final class Snapshotter implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Snapshotter.class);
    private static final long POLL_MILLIS = 100;

    private final Journal journal;
    private final OffHeapIndex index;
    private final PublishedRevisions progress;
    private final long everyRevisions;
    private final IndexEntry entry = new IndexEntry();
    private final String name;
    private final TimingCounter durations = new TimingCounter();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException lastFailure;
    private SnapshotOutput writer;
    /** A scanned snapshot waiting for the log to hold everything it may hold; null if none. */
    private SnapshotOutput pending;
    /** The writer's revision when the pending snapshot's scan ended: the log must reach it. */
    private long pendingBound;
    /** The roll-back stamp from before the pending snapshot's scan. */
    private long pendingStamp;
    /** Time spent scanning and writing the pending snapshot, in nanoseconds. */
    private long pendingNanos;
    private long lastSnapshotRevision;

    /**
     * Starts the background thread (none when {@code everyRevisions} is 0).
     *
     * @param journal        where snapshots go: a journal that {@link Journal#keepsSnapshots() keeps them}.
     * @param index          the index to scan; must outlive {@link #close()}.
     * @param progress       the writer's and the journal's progress (the engine's revision cursor).
     * @param everyRevisions revisions between snapshots; 0 for none.
     * @param name           the background thread's name, also in log lines.
     */
    public Snapshotter(final String name, final Journal journal, final OffHeapIndex index, final PublishedRevisions progress, final long everyRevisions)
    {
        this.name = name;
        this.journal = journal;
        this.index = index;
        this.progress = progress;
        this.everyRevisions = everyRevisions;
        this.lastSnapshotRevision = journal.snapshotRevision();
        if (everyRevisions > 0)
        {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }
        else
        {
            thread = null;
        }
    }

    /**
     * @return how long snapshots took, one operation per snapshot written. Any thread.
     */
    public TimingCounter durations()
    {
        return durations;
    }

    /**
     * @return the failure of the last snapshot attempt, or null if it succeeded. Any thread.
     */
    public RuntimeException lastFailure()
    {
        return lastFailure;
    }

    /**
     * Commits the pending snapshot if the log now holds everything it may hold, then, if none is
     * pending and a revision became durable since the last snapshot, scans a new one and commits
     * it at once if the log already holds what it saw (otherwise it stays pending for the next
     * call). The snapshotter's own thread, or the closing thread once that has stopped.
     *
     * @return the revision of the newest snapshot committed, 0 if none.
     */
    public long snapshotNow()
    {
        settlePending();
        if (pending == null)
        {
            final long revision = progress.durable();
            if (revision > lastSnapshotRevision)
            {
                scan(revision);
                settlePending();
            }
        }
        return lastSnapshotRevision;
    }

    /**
     * Stops the background thread, then takes a last snapshot unless snapshots are off, so the
     * next start replays nothing. Call after the writer has stopped and before the log closes. A
     * last snapshot that fails (a full disk) is logged and kept as {@code lastFailure}, not thrown.
     */
    @Override
    public void close()
    {
        running = false;
        if (thread == null)
        {
            abandonPending();
            return;
        }
        thread.interrupt();
        try
        {
            thread.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        try
        {
            snapshotNow();
        }
        catch (final RuntimeException e)
        {
            // A full disk, typically after the journal failed for it: the snapshot only shortens
            // the next recovery, and the engine's close must still close the journal and free the index.
            lastFailure = e;
            LOG.warn("{}: the closing index snapshot failed; the next open replays the log after the last one", name, e);
        }
        finally
        {
            // The writer has stopped: a snapshot still pending holds revisions the log never will.
            abandonPending();
        }
    }

    /**
     * Scans the whole index into a new snapshot as of {@code revision} and leaves it pending, with
     * the bound the log must reach before it may be committed.
     */
    private void scan(final long revision)
    {
        final long start = System.nanoTime();
        final long stamp = progress.readStamp();
        final SnapshotOutput out = journal.newSnapshot(revision);
        try
        {
            writer = out;
            index.scan(null, 0, 0, null, 0, 0, 0, this::write, entry);
        }
        catch (final RuntimeException e)
        {
            out.close();
            throw e;
        }
        finally
        {
            writer = null;
        }
        // Learnt after the scan: no change it saw is of a later revision.
        pendingBound = progress.awaitBound();
        pendingStamp = stamp;
        pendingNanos = System.nanoTime() - start;
        pending = out;
    }

    /**
     * Commits the pending snapshot once the log is durable up to its bound; abandons it if a
     * roll-back overlapped it (it may hold revisions the log will never hold).
     */
    private void settlePending()
    {
        final SnapshotOutput out = pending;
        if (out == null)
        {
            return;
        }
        if (!progress.isStable(pendingStamp))
        {
            abandonPending();
            return;
        }
        if (progress.durable() < pendingBound)
        {
            return;
        }
        pending = null;
        final long start = System.nanoTime();
        out.commit();
        lastSnapshotRevision = out.snapshotRevision();
        lastFailure = null;
        final long nanos = pendingNanos + System.nanoTime() - start;
        durations.record(1, nanos);
        LOG.info("{}: index snapshot at revision {} ({} keys) took {} ms", name, lastSnapshotRevision, index.size(),
            nanos / 1_000_000);
    }

    private void abandonPending()
    {
        final SnapshotOutput out = pending;
        pending = null;
        if (out != null)
        {
            out.close();
        }
    }

    private boolean write(final IndexEntry e)
    {
        writer.append(e.key(), 0, e.keyLength(), e.value(), 0, e.valueLength(), e.createRevision(), e.modRevision(), e.version(),
            e.lease());
        return true;
    }

    private void run()
    {
        while (running)
        {
            try
            {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            }
            catch (final InterruptedException e)
            {
                return;
            }
            try
            {
                settlePending();
                if (pending == null && progress.durable() - lastSnapshotRevision >= everyRevisions)
                {
                    snapshotNow();
                }
            }
            catch (final RuntimeException e)
            {
                // Recovery replays more of the log without it; the next attempt may succeed.
                lastFailure = e;
                LOG.warn("{}: index snapshot failed; a restart replays more of the log, the next attempt may succeed",
                    name, e);
            }
        }
    }
}
