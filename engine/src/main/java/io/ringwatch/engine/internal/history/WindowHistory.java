package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;

/**
 * The watch window seen as a {@link History}: what an engine without a journal can still replay.
 * A reader fails with {@link IllegalStateException} if the window overwrites an event it has not
 * read yet. Readers allocate nothing per event.
 */
public final class WindowHistory implements History
{
    private final WatchWindow window;

    /**
     * @param window the window to read.
     */
    public WindowHistory(final WatchWindow window)
    {
        this.window = window;
    }

    /**
     * The oldest revision a reader can seek to now: the oldest revision held, or the one after it
     * when the window has already lost some of that revision's events. A cancelled watcher told
     * to resume here can. Any thread; no allocation.
     */
    @Override
    public long firstRevision()
    {
        final long oldest = Math.max(1, window.oldestRevision());
        return window.firstSequenceAtOrAfter(oldest) == WatchWindow.REVISION_EVICTED ? oldest + 1 : oldest;
    }

    /**
     * A quarter of the window past {@link #firstRevision()} (never past the next revision): the
     * oldest revision of a full window is the next one the writer overwrites, so a client told to
     * resume there would lose the race with the very next write; this leaves it a quarter of the
     * window's events of slack. The client skips the revisions in between, which it had lost with
     * the rest. Any thread; no allocation.
     */
    @Override
    public long resumeRevision()
    {
        final long first = firstRevision();
        final long slack = Math.max(1, window.capacity() / 4);
        return Math.max(first, Math.min(first + slack, window.publishedRevision() + 1));
    }

    @Override
    public HistoryReader newReader()
    {
        return new Reader();
    }

    private final class Reader implements HistoryReader
    {
        private long sequence = -1;
        private long lastRevision;

        @Override
        public boolean seek(final long revision)
        {
            final long found = window.firstSequenceAtOrAfter(revision);
            if (found == WatchWindow.REVISION_EVICTED)
            {
                return false;
            }
            sequence = found;
            return true;
        }

        @Override
        public boolean next(final EventRecord into)
        {
            if (sequence < 0 || sequence > window.publishedSequence())
            {
                return false;
            }
            if (window.read(sequence, into) != WatchWindow.READ_OK)
            {
                throw new IllegalStateException("the watch window overwrote revision history being read");
            }
            sequence++;
            lastRevision = into.revision();
            return true;
        }

        @Override
        public long lastRevision()
        {
            return lastRevision;
        }

        @Override
        public void close()
        {
        }
    }
}
