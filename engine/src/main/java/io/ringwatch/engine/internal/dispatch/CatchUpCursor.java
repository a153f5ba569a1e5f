package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.internal.secondary.IndexValues;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A watcher's own cursor while it is off the routes: where its consumer reads the history
 * (the watch window, then the revision log in a persistent engine). Allocated when the watcher
 * first starts catching up and kept, closed, after it rejoins the routes, for the next catch-up:
 * a watcher that keeps up never holds one, and one that keeps overflowing allocates none each time.
 *
 * <p>Threads: consumer-owned, like the delivery point it serves; used by one consumer thread at a
 * time, whose hand-over the watcher's drain publishes. Allocation: the history reader, once per
 * catch-up; for a watch by index, the index values of one event's old and new value, once.
 */
final class CatchUpCursor
{
    /** The open reader, null until the first read of this catch-up. */
    private HistoryReader reader;
    /** Matching events of the resume revision that were delivered already and must be skipped. */
    int skip;
    /** The reader found no more changes on its last attempt. */
    boolean atEnd;
    /** The revision of the last change read, 0 before any: the revisions before it are complete. */
    long lastRead;
    /** A watch by index's scratch: the index values of the event's old and new value. */
    private IndexValues olds;
    private IndexValues news;
    private UnsafeBuffer wanted;

    /**
     * Opens a reader at {@code revision}.
     *
     * @param history   where to read.
     * @param revision  the first revision wanted.
     * @param delivered matching events of {@code revision} delivered already.
     * @return false if the history no longer holds {@code revision}.
     */
    boolean open(final History history, final long revision, final int delivered)
    {
        final HistoryReader opened = history.newReader();
        if (!opened.seek(revision))
        {
            opened.close();
            return false;
        }
        reader = opened;
        skip = delivered;
        atEnd = false;
        lastRead = 0;
        return true;
    }

    /**
     * @return the open reader, or null before {@link #open}.
     */
    HistoryReader reader()
    {
        return reader;
    }

    /**
     * How an event read by this cursor looks to a watch by index, decided on the consumer's thread
     * as the dispatcher decides it for routed events: by the index function on the event's
     * previous and new value (old OR new value semantics).
     *
     * @param indexName the index's name, for error messages.
     * @param index     the watched function and value.
     * @param record    the event, read in full.
     * @return an {@link IndexMatch} mode, NONE when the watcher does not see it.
     * @throws IndexFunctionException if the function throws.
     */
    int indexMatch(final String indexName, final IndexWatch index, final EventRecord record)
    {
        if (olds == null)
        {
            olds = new IndexValues();
            news = new IndexValues();
            wanted = new UnsafeBuffer(index.value);
        }
        final boolean oldMatches = record.hasPrev() &&
            olds.collect(indexName, index.function, record.prevValue(), 0, record.prevValueLength())
                .contains(wanted, 0, index.value.length);
        final boolean newMatches = record.type() == EventType.PUT &&
            news.collect(indexName, index.function, record.value(), 0, record.valueLength())
                .contains(wanted, 0, index.value.length);
        return IndexMatch.of(oldMatches, newMatches);
    }

    /**
     * Releases the reader and forgets where it stood; a later read must {@link #open} again (at the
     * consumer's resume point, which is then the position a compaction is checked against).
     * Idempotent.
     */
    void close()
    {
        final HistoryReader open = reader;
        if (open != null)
        {
            reader = null;
            open.close();
        }
        atEnd = false;
        lastRead = 0;
    }
}
