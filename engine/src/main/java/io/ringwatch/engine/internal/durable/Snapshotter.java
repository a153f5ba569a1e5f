package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.stats.TimingCounter;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.SnapshotWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Writes index snapshots beside the revision log so that a restart replays only the revisions
 * after the newest one. Every {@code everyRevisions} revisions a background thread takes a fuzzy
 * snapshot while the writer goes on: it notes the durable revision S (what the log holds, never
 * ahead of it), scans the whole index and records the snapshot as of S. Keys that changed during the scan may be caught at a later state,
 * which is harmless: recovery replays every change after S over the snapshot, and each change
 * carries its key's whole state. The retention of the log keeps everything after the newest
 * snapshot. Allocates a writer per snapshot and nothing per key.
 */
public final class Snapshotter implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Snapshotter.class);
    private static final long POLL_MILLIS = 100;

    private final RevisionLog log;
    private final OffHeapIndex index;
    private final LongSupplier appliedRevision;
    private final long everyRevisions;
    private final IndexEntry entry = new IndexEntry();
    private final String name;
    private final TimingCounter durations = new TimingCounter();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException lastFailure;
    private SnapshotWriter writer;
    private long lastSnapshotRevision;

    /**
     * Starts the background thread (none when {@code everyRevisions} is 0).
     *
     * @param log             where snapshots go.
     * @param index           the index to scan; must outlive {@link #close()}.
     * @param appliedRevision the engine's durable revision: the newest one the log holds.
     * @param everyRevisions  revisions between snapshots; 0 for none.
     * @param name            the background thread's name, also in log lines.
     */
    public Snapshotter(final String name, final RevisionLog log, final OffHeapIndex index, final LongSupplier appliedRevision, final long everyRevisions)
    {
        this.name = name;
        this.log = log;
        this.index = index;
        this.appliedRevision = appliedRevision;
        this.everyRevisions = everyRevisions;
        this.lastSnapshotRevision = log.snapshotRevision();
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
     * Takes a snapshot now if any revision was applied since the last one. The snapshotter's own
     * thread, or the closing thread once that has stopped.
     *
     * @return the snapshot's revision, or the previous one's if nothing changed.
     */
    public long snapshotNow()
    {
        final long revision = appliedRevision.getAsLong();
        if (revision <= lastSnapshotRevision)
        {
            return lastSnapshotRevision;
        }
        final long start = System.nanoTime();
        try (SnapshotWriter out = log.snapshotWriter(revision))
        {
            writer = out;
            index.scan(null, 0, 0, null, 0, 0, 0, this::write, entry);
            out.commit();
            lastSnapshotRevision = revision;
            lastFailure = null;
        }
        finally
        {
            writer = null;
        }
        final long nanos = System.nanoTime() - start;
        durations.record(1, nanos);
        LOG.info("{}: index snapshot at revision {} ({} keys) took {} ms", name, revision, index.size(), nanos / 1_000_000);
        return revision;
    }

    /**
     * Stops the background thread, then takes a last snapshot unless snapshots are off, so the
     * next start replays nothing. Call after the writer has stopped and before the log closes.
     */
    @Override
    public void close()
    {
        running = false;
        if (thread == null)
        {
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
        snapshotNow();
    }

    private boolean write(final IndexEntry e)
    {
        writer.append(e.key(), 0, e.keyLength(), e.value(), 0, e.valueLength(), e.createRevision(), e.modRevision(), e.version());
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
            if (appliedRevision.getAsLong() - lastSnapshotRevision >= everyRevisions)
            {
                try
                {
                    snapshotNow();
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
}
