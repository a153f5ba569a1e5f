package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.history.History;
import io.ringwatch.engine.history.HistoryReader;

/**
 * A watcher's own cursor while it is off the routes: where its consumer reads the history
 * (the watch window, then the revision log in a persistent engine). Allocated when the watcher
 * starts catching up and dropped when it rejoins the routes, so a watcher that keeps up never
 * holds one.
 *
 * <p>Threads: consumer-owned, like the delivery point it serves; used by one consumer thread at a
 * time, whose hand-over the watcher's drain publishes. Allocation: the history reader, once per
 * catch-up.
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

    /** Releases the reader; a later read must {@link #open} again. Idempotent. */
    void close()
    {
        final HistoryReader open = reader;
        if (open != null)
        {
            reader = null;
            open.close();
        }
        atEnd = false;
    }
}
