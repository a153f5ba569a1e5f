package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;

/**
 * The history a watcher of a persistent engine catches up from: the watch window while it still
 * holds what the watcher needs (memory, no decoding), the revision log only before that or once
 * the window has overwritten the reader's next event. The switch happens inside one revision at
 * the exact event, so a reader sees every change once, in order, whichever tier served it.
 *
 * <p>Threads: as {@link History}. Allocation: a reader per {@link #newReader()}, and a log reader
 * the first time one of them needs the log; nothing per change.
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
        private boolean onWindow;
        private long seekRevision;
        /** The revision of the last change returned, 0 before any... */
        private long lastRevision;
        /** ...and how many of its changes were returned. */
        private int readInRevision;

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
                    found = fromLog.next(into);
                }
            }
            else
            {
                found = fromLog.next(into);
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

        @Override
        public long lastRevision()
        {
            return lastRevision;
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

        /** Opens the log at {@code revision}, past the {@code skip} changes of it already returned. */
        private boolean openLog(final long revision, final int skip)
        {
            if (fromLog == null)
            {
                fromLog = log.newReader();
            }
            if (!fromLog.seek(revision))
            {
                return false;
            }
            final EventRecord skipped = new EventRecord();
            for (int i = 0; i < skip; i++)
            {
                if (!fromLog.next(skipped))
                {
                    return false;
                }
            }
            return true;
        }
    }
}
