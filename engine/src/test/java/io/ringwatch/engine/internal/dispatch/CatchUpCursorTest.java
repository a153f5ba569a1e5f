package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watcher keeps its {@link CatchUpCursor} from one catch-up to the next, so closing it must leave
 * nothing of the last catch-up behind: no reader, and no position a compaction would be checked against.
 */
class CatchUpCursorTest
{
    /** A history of revisions 5 on whose readers count their closes. */
    private static final class CountingHistory implements History
    {
        int opened;
        int closed;

        @Override
        public long firstRevision()
        {
            return 5;
        }

        @Override
        public HistoryReader newReader()
        {
            opened++;
            return new HistoryReader()
            {
                @Override
                public boolean seek(final long revision)
                {
                    return revision >= 5;
                }

                @Override
                public boolean next(final EventRecord into)
                {
                    return false;
                }

                @Override
                public long lastRevision()
                {
                    return 0;
                }

                @Override
                public void close()
                {
                    closed++;
                }
            };
        }
    }

    @Test
    void closeReleasesTheReaderAndForgetsWhereTheLastCatchUpStood()
    {
        final CountingHistory history = new CountingHistory();
        final CatchUpCursor cursor = new CatchUpCursor();
        assertTrue(cursor.open(history, 7, 2));
        assertNotNull(cursor.reader());
        cursor.lastRead = 9;
        cursor.atEnd = true;

        cursor.close();

        assertNull(cursor.reader());
        assertEquals(1, history.closed);
        assertEquals(0, cursor.lastRead, "a kept cursor must not carry an older position into the next catch-up");
        assertFalse(cursor.atEnd);
        cursor.close();
        assertEquals(1, history.closed, "idempotent");
    }

    @Test
    void aClosedCursorOpensAgainWithANewReader()
    {
        final CountingHistory history = new CountingHistory();
        final CatchUpCursor cursor = new CatchUpCursor();
        assertTrue(cursor.open(history, 7, 0));
        cursor.close();
        assertTrue(cursor.open(history, 12, 3));
        assertEquals(2, history.opened);
        assertEquals(3, cursor.skip);
        assertEquals(0, cursor.lastRead);
    }
}
