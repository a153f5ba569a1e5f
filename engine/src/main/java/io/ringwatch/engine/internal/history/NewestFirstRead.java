package io.ringwatch.engine.internal.history;

import java.util.ArrayList;
import java.util.List;

import io.ringwatch.engine.errors.RecoveryException;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.ReplayBatch;

/**
 * Reads the log from revision {@code from} to its end newest first, for recovery's replay without
 * a snapshot, where only each key's newest change counts: the log is cut into chunks of
 * {@code chunkRevisions} revisions, read from the newest chunk back to the oldest; each chunk is
 * read forward (a seek to its first revision, then {@link HistoryReader#fill}) into batches of its
 * own, and handed to the ring last batch first, so that the applier, which walks each batch from
 * its last change back, meets every change of the log newest first. A read that runs past the
 * chunk's last revision (batches fill by change count) drops what it ran past; the newest chunk is
 * read to the log's end, wherever that is ({@link #newestRead}).
 * <p>
 * Threads: {@link #readInto} runs on recovery's reader thread; the opening thread reads
 * {@link #newestRead} after joining it. Allocation: a chunk's batches, once (about
 * {@code chunkRevisions} changes of buffer), more only for a chunk larger than every one before.
 */
final class NewestFirstRead
{
    private final HistoryReader reader;
    private final long from;
    private final long last;
    private final long chunkRevisions;
    private final int batchChanges;
    private final int batchBytes;
    private final List<ReplayBatch> chunk = new ArrayList<>();
    /** The newest revision read: the log's end. Written by the reader thread, read after its join. */
    private long newestRead;

    /**
     * @param reader         the reader, used only by {@link #readInto}'s thread from now on.
     * @param from           the oldest revision to read, at least 1.
     * @param last           the revision the log reports as its last, at least {@code from}.
     * @param chunkRevisions revisions per chunk, at least 1.
     * @param batchChanges   changes per batch, as in the ring.
     * @param batchBytes     each batch's first buffer size.
     */
    NewestFirstRead(
        final HistoryReader reader, final long from, final long last, final long chunkRevisions,
        final int batchChanges, final int batchBytes)
    {
        if (from < 1 || last < from || chunkRevisions < 1)
        {
            throw new IllegalArgumentException("cannot read revisions " + from + " to " + last + " in chunks of " + chunkRevisions);
        }
        this.reader = reader;
        this.from = from;
        this.last = last;
        this.chunkRevisions = chunkRevisions;
        this.batchChanges = batchChanges;
        this.batchBytes = batchBytes;
    }

    /**
     * Reads every chunk, newest first, into {@code ring}; stops early if the ring is cancelled.
     *
     * @param ring the ring to fill.
     * @throws RecoveryException if the log cannot be read from a chunk's first revision; or what the
     *                           reader throws.
     */
    void readInto(final ReplayRing ring)
    {
        long newest = Long.MAX_VALUE;
        long oldest = Math.max(from, last - chunkRevisions + 1);
        while (true)
        {
            if (!reader.seek(oldest))
            {
                throw new RecoveryException("the revision log cannot be read from revision " + oldest);
            }
            final int batches = readChunk(newest);
            if (newest == Long.MAX_VALUE)
            {
                newestRead = reader.lastRevision();
            }
            for (int b = batches - 1; b >= 0; b--)
            {
                final ReplayBatch into = ring.claim();
                if (into == null)
                {
                    return;
                }
                into.copyFrom(chunk.get(b));
                ring.publish();
            }
            if (oldest == from)
            {
                return;
            }
            newest = oldest - 1;
            oldest = Math.max(from, oldest - chunkRevisions);
        }
    }

    /**
     * Reads from the reader's position up to revision {@code newest} into the chunk's batches.
     *
     * @return the number of batches filled, each holding at least one change.
     */
    private int readChunk(final long newest)
    {
        int used = 0;
        boolean more = true;
        while (more)
        {
            if (used == chunk.size())
            {
                chunk.add(new ReplayBatch(batchChanges, batchBytes));
            }
            final ReplayBatch batch = chunk.get(used);
            batch.clear();
            more = reader.fill(batch);
            int count = batch.count();
            if (count > 0 && batch.revision(count - 1) > newest)
            {
                while (count > 0 && batch.revision(count - 1) > newest)
                {
                    count--;
                }
                batch.truncate(count);
                more = false;
            }
            if (count > 0)
            {
                used++;
            }
        }
        return used;
    }

    /**
     * @return the newest revision read, the log's end; 0 before the newest chunk was read. Read it
     * once the reader thread has ended.
     */
    long newestRead()
    {
        return newestRead;
    }
}
