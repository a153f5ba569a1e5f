package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.fixedCapacity;
import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.WatchWindow.REVISION_EVICTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FirstSequenceAtOrAfterTest
{
    private final WatchWindow window = new WatchWindow(fixedCapacity(4), new ManualClock(0));

    @Test
    void emptyWindowAnswersTheNextSequence()
    {
        assertEquals(0, window.firstSequenceAtOrAfter(1));
        assertEquals(0, window.firstSequenceAtOrAfter(1_000));
    }

    @Test
    void findsExactBetweenAndNewerRevisions()
    {
        put(window, 10, "a", "1");
        put(window, 10, "b", "2");
        put(window, 12, "c", "3");
        put(window, 15, "d", "4");
        window.publish();

        assertEquals(0, window.firstSequenceAtOrAfter(1), "nothing evicted: older revisions start at 0");
        assertEquals(0, window.firstSequenceAtOrAfter(10));
        assertEquals(2, window.firstSequenceAtOrAfter(11));
        assertEquals(2, window.firstSequenceAtOrAfter(12));
        assertEquals(3, window.firstSequenceAtOrAfter(13));
        assertEquals(3, window.firstSequenceAtOrAfter(15));
        assertEquals(4, window.firstSequenceAtOrAfter(16));
    }

    @Test
    void unpublishedEventsAreNotFound()
    {
        put(window, 1, "a", "1");
        window.publish();
        put(window, 2, "b", "2");

        assertEquals(1, window.firstSequenceAtOrAfter(2));
    }

    @Test
    void revisionsOlderThanTheWindowAreEvicted()
    {
        for (long revision = 1; revision <= 6; revision++)
        {
            put(window, revision, "k" + revision, "v");
        }
        window.publish();

        assertEquals(2, window.oldestSequence());
        assertEquals(3, window.oldestRevision());
        assertEquals(REVISION_EVICTED, window.firstSequenceAtOrAfter(1));
        assertEquals(REVISION_EVICTED, window.firstSequenceAtOrAfter(2));
        assertEquals(2, window.firstSequenceAtOrAfter(3));
        assertEquals(5, window.firstSequenceAtOrAfter(6));
        assertEquals(6, window.firstSequenceAtOrAfter(7));
    }

    @Test
    void aTransactionPartlyEvictedCannotBeServed()
    {
        put(window, 1, "a", "1");
        put(window, 2, "b", "2");
        put(window, 2, "c", "3");
        put(window, 2, "d", "4");
        put(window, 3, "e", "5");
        put(window, 4, "f", "6");
        window.publish();

        assertEquals(2, window.oldestSequence());
        assertEquals(2, window.oldestRevision(), "revision 2 is still partly in the window");
        assertEquals(REVISION_EVICTED, window.firstSequenceAtOrAfter(2));
        assertEquals(4, window.firstSequenceAtOrAfter(3));
    }

    @Test
    void publishedEventsEvictedByUnpublishedOnesAreReportedEvicted()
    {
        for (long revision = 1; revision <= 4; revision++)
        {
            put(window, revision, "k" + revision, "v");
        }
        window.publish();
        for (long revision = 5; revision <= 9; revision++)
        {
            put(window, revision, "k" + revision, "v");
        }

        assertEquals(4, window.oldestSequence(), "nothing published is held: the next published sequence");
        assertEquals(0, window.oldestRevision());
        assertEquals(REVISION_EVICTED, window.firstSequenceAtOrAfter(4));
        assertEquals(4, window.firstSequenceAtOrAfter(10));
    }

    @Test
    void nonPositiveRevisionIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> window.firstSequenceAtOrAfter(0));
        assertThrows(IllegalArgumentException.class, () -> window.firstSequenceAtOrAfter(-5));
    }
}
