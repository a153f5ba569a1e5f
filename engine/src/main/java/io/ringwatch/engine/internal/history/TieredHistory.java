package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;

/**
 * The history a watcher of a persistent engine catches up from, and a read at a past revision
 * undoes the present through: the watch window while it still
 * holds what the watcher needs (memory, no decoding), the revision log only before that or once
 * the window has overwritten the reader's next event. The switch happens inside one revision at
 * the exact event, so a reader sees every change once, in order, whichever tier served it. An
 * ASYNC journal may not have appended that revision yet when the window laps the reader (the
 * writer runs up to the write ring ahead of it): the reader then ends there for now, inside the
 * revision ({@link HistoryReader#lastRevision()} names the one before), and goes on once the log
 * has it. It fails only for a revision the log no longer holds.
 *
 * <p>Threads: as {@link History}. Allocation: a reader per {@link #newReader()}, and a log reader
 * (with one scratch record) the first time one of them needs the log; nothing per change.
 */
public final class TieredHistory implements History
{
    private final WindowHistory window;
    private final History log;

    /**
     * @param window the watch window, the first tier.
     * @param log    the revision log, holding everything the window may have lost.
     */
    public TieredHistory(final WatchWindow window, final History log)
    {
        this.window = new WindowHistory(window);
        this.log = log;
    }

    @Override
    public long firstRevision()
    {
        return log.firstRevision();
    }

    @Override
    public HistoryReader newReader()
    {
        return new Reader(window.newReader());
    }

    private final class Reader implements HistoryReader
    {
        private final HistoryReader fromWindow;
        private HistoryReader fromLog;
        /** Where the log passes the changes the window had returned already; allocated with {@link #fromLog}. */
        private EventRecord skipped;
        private boolean onWindow;
        private long seekRevision;
        /** The revision of the last change returned, 0 before any... */
        private long lastRevision;
        /** ...and how many of its changes were returned. */
        private int readInRevision;
        /**
         * Changes of {@link #lastRevision} the log must still pass before it returns the next one:
         * the window lapped this reader inside that revision, and an ASYNC journal may append it
         * only later. Until then the reader waits there instead of failing.
         */
        private int logSkip;

        Reader(final HistoryReader fromWindow)
        {
            this.fromWindow = fromWindow;
        }

        @Override
        public boolean seek(final long revision)
        {
            seekRevision = revision;
            lastRevision = 0;
            readInRevision = 0;
            logSkip = 0;
            onWindow = fromWindow.seek(revision);
            return onWindow || openLog(revision, 0);
        }

        @Override
        public boolean next(final EventRecord into)
        {
            boolean found;
            if (onWindow)
            {
                try
                {
                    found = fromWindow.next(into);
                }
                catch (final IllegalStateException lapped)
                {
                    // The window overwrote what comes next: the log holds it, from the same event.
                    onWindow = false;
                    final long revision = lastRevision == 0 ? seekRevision : lastRevision;
                    if (!openLog(revision, lastRevision == 0 ? 0 : readInRevision))
                    {
                        throw new IllegalStateException("revision " + revision + " is neither in the window nor in the log");
                    }
                    found = nextFromLog(into);
                }
            }
            else
            {
                found = nextFromLog(into);
            }
            if (found)
            {
                if (into.revision() == lastRevision)
                {
                    readInRevision++;
                }
                else
                {
                    lastRevision = into.revision();
                    readInRevision = 1;
                }
            }
            return found;
        }

        /**
         * While the reader is held inside a revision the log has not appended yet, every revision
         * before it: the last one whose changes were all returned.
         */
        @Override
        public long lastRevision()
        {
            return logSkip > 0 ? lastRevision - 1 : lastRevision;
        }

        @Override
        public void close()
        {
            fromWindow.close();
            if (fromLog != null)
            {
                fromLog.close();
                fromLog = null;
            }
        }

        /** Opens the log at {@code revision}, to pass the {@code skip} changes of it already returned first. */
        private boolean openLog(final long revision, final int skip)
        {
            if (fromLog == null)
            {
                fromLog = log.newReader();
                skipped = new EventRecord();
            }
            if (!fromLog.seek(revision))
            {
                return false;
            }
            logSkip = skip;
            return true;
        }

        /**
         * The log's next change once it has passed those already returned. A log that has not
         * appended them yet (an ASYNC journal behind the window) ends here for now, inside the
         * revision; the next call goes on. Only a log that no longer holds the revision fails.
         */
        private boolean nextFromLog(final EventRecord into)
        {
            while (logSkip > 0)
            {
                if (!fromLog.next(skipped))
                {
                    if (lastRevision < log.firstRevision())
                    {
                        throw new IllegalStateException("revision " + lastRevision + " is no longer in the log");
                    }
                    return false;
                }
                logSkip--;
            }
            return fromLog.next(into);
        }
    }
}
