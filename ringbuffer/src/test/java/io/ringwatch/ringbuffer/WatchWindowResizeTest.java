package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.TestEvents.readOk;
import static io.ringwatch.ringbuffer.TestEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class WatchWindowResizeTest
{
    private static final long FRESHNESS = 100;

    private final ManualClock clock = new ManualClock(0);
    private final WatchWindow window = new WatchWindow(
        WindowConfig.builder().minCapacity(4).maxCapacity(16).freshnessNanos(FRESHNESS).build(), clock);
    private long revision;

    @Test
    void startsAtTheLowerBound()
    {
        assertEquals(4, window.capacity());
        assertEquals(window.config().dataCapacityFor(4), window.dataCapacity());
    }

    @Test
    void fullWindowWithFreshOldestEventDoublesUpToTheUpperBound()
    {
        appendAt(0, 4);
        assertEquals(4, window.capacity(), "not full until the next append");

        appendAt(0, 1);
        assertEquals(8, window.capacity());
        appendAt(0, 3);
        assertEquals(8, window.capacity());
        appendAt(0, 1);
        assertEquals(16, window.capacity());
        appendAt(0, 7);
        assertEquals(16, window.capacity());
        assertEquals(0, window.oldestSequence(), "nothing evicted while growing");

        appendAt(0, 1);
        assertEquals(16, window.capacity(), "capped at the upper bound");
        assertEquals(2, window.growCount());
        assertEquals(0, window.shrinkCount());
        assertEquals(window.config().dataCapacityFor(16), window.dataCapacity());
        assertEquals(1, window.oldestSequence());
        assertEveryHeldEventIsIntact();
    }

    @Test
    void growsOnlyWhileTheOldestEventIsStrictlyYoungerThanFreshness()
    {
        appendAt(0, 1);
        appendAt(50, 3);

        appendAt(FRESHNESS, 1);

        assertEquals(4, window.capacity(), "oldest is exactly as old as freshness: no growth");
        assertEquals(1, window.oldestSequence());

        appendAt(50 + FRESHNESS - 1, 1);
        assertEquals(8, window.capacity());
        assertEquals(1, window.growCount());
    }

    @Test
    void atTheUpperBoundItShrinksAtTheFirstAppendWhoseNewestQuarterIsStaleEvenAfterAppendsThatSkippedTheLook()
    {
        growTo16();
        // Steady appends at the bound, 10 ns apart: the newest quarter (4 events) is at most 40 ns old.
        long now = 0;
        for (int i = 0; i < 200; i++)
        {
            now += 10;
            appendAt(now, 1);
            assertEquals(16, window.capacity(), "append " + i);
        }
        // The newest quarter's first event is 30 ns older than the last: 70 ns more keeps it fresh...
        appendAt(now + FRESHNESS - 30, 1);
        assertEquals(16, window.capacity());
        // ...and once it is staler than freshness the window halves, on that very append.
        appendAt(now + 2 * FRESHNESS, 1);
        assertEquals(8, window.capacity());
        assertEquals(1, window.shrinkCount());
        assertEveryHeldEventIsIntact();
    }

    @Test
    void anEventStampedByTheWriterIsJudgedByItsStampNotByTheClock()
    {
        // The clock stays at 0, where every event would look fresh and a full window would grow.
        stampedAt(0, 4);
        stampedAt(FRESHNESS, 1);
        assertEquals(4, window.capacity(), "the stamps say the oldest is exactly as old as freshness: no growth");

        stampedAt(FRESHNESS, 3);
        stampedAt(FRESHNESS + 1, 1);
        assertEquals(8, window.capacity(), "the stamps say the oldest is 1 ns old: growth");
        assertEquals(0, clock.nanoTime());
    }

    private void stampedAt(final long stampNanos, final int count)
    {
        final ChangeRecord record = new ChangeRecord();
        for (int i = 0; i < count; i++)
        {
            revision++;
            final UnsafeBuffer key = TestEvents.bytes("key-" + revision);
            record.clear();
            record.add(EventType.PUT, key, 0, key.capacity(), key, 0, key.capacity(), revision, revision, 1,
                null, 0, 0, 0, 0, 0);
            window.append(revision, record, stampNanos);
        }
        window.publish();
    }

    @Test
    void fullWindowWhoseNewestQuarterIsStaleHalvesKeepingTheNewestEvents()
    {
        growTo16();
        appendAt(1_000, 1);

        assertEquals(8, window.capacity());
        assertEquals(1, window.shrinkCount());
        assertEquals(9, window.oldestSequence(), "kept the newest 8, then evicted one for the new event");
        final EventRecord record = new EventRecord();
        for (long sequence = 0; sequence < 9; sequence++)
        {
            assertEquals(WatchWindow.READ_LAPPED, window.read(sequence, record), "sequence " + sequence);
        }
        assertEveryHeldEventIsIntact();
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(9));
        assertEquals(9, window.firstSequenceAtOrAfter(10));
        assertEquals(window.config().dataCapacityFor(8), window.dataCapacity());
    }

    @Test
    void shrinkLooksAtTheEventAQuarterOfTheCapacityBackFromTheNext()
    {
        growTo16();
        clock.set(0);
        // Sequences 0..11 at time 0, 12..15 (the newest quarter) at time 950.
        final WatchWindow fresh = new WatchWindow(window.config(), clock);
        long rev = 0;
        for (int i = 0; i < 16; i++)
        {
            clock.set(i < 12 ? 0 : 950);
            put(fresh, ++rev, "k" + rev, "v" + rev);
        }
        assertEquals(16, fresh.capacity());

        clock.set(950 + FRESHNESS);
        put(fresh, ++rev, "k", "v");
        assertEquals(16, fresh.capacity(), "newest quarter exactly as old as freshness: no shrink");

        // Sequence 13 is now a quarter back from the next (17): its age decides.
        clock.set(950 + FRESHNESS + 1);
        put(fresh, ++rev, "k", "v");
        assertEquals(8, fresh.capacity());
    }

    @Test
    void shrinksRepeatedlyButNotBelowTheLowerBound()
    {
        growTo16();
        long now = 1_000;
        for (int i = 0; i < 40; i++)
        {
            now += 1_000;
            appendAt(now, 1);
        }

        assertEquals(4, window.capacity());
        assertEquals(2, window.shrinkCount());
        assertEveryHeldEventIsIntact();
    }

    @Test
    void growsAgainOnceTheStaleHistoryHasGone()
    {
        growTo16();

        // Stale events shrink the window to the lower bound; once it holds only events of the
        // new burst, it is full with a fresh oldest event and grows back.
        appendAt(1_000, 30);

        assertEquals(16, window.capacity());
        assertEquals(2, window.shrinkCount());
        assertEquals(4, window.growCount());
        assertEveryHeldEventIsIntact();
    }

    @Test
    void aWindowHalfFullWithinHalfTheFreshnessGrowsIntoTheGenerationBuiltAhead()
    {
        appendAt(0, 3);

        assertTrue(window.prepareGrowth(), "half full at once: the doubled generation is built");
        assertFalse(window.prepareGrowth(), "built already");
        appendAt(1, 2);

        assertEquals(8, window.capacity());
        assertEquals(1, window.growCount());
        assertEquals(1, window.preparedGrowthCount());
        assertEquals(4, window.publishedSequence());
        assertEquals(0, window.oldestSequence(), "nothing evicted while growing");
        assertEveryHeldEventIsIntact();
    }

    @Test
    void theNextGrowthIsAskedForAsSoonAsAGrowthLeavesTheWindowHalfFull()
    {
        appendAt(0, 5);
        assertEquals(8, window.capacity(), "grown without a prepared generation");
        assertEquals(0, window.preparedGrowthCount());

        assertTrue(window.prepareGrowth());
        appendAt(2, 4);

        assertEquals(16, window.capacity());
        assertEquals(1, window.preparedGrowthCount());
        assertEquals(8, window.publishedSequence());
        assertEquals(0, window.oldestSequence(), "nothing evicted while growing");
        assertEveryHeldEventIsIntact();
    }

    @Test
    void aWindowFillingSlowerThanHalfTheFreshnessAsksForNothing()
    {
        appendAt(0, 2);
        appendAt(FRESHNESS / 2, 1);

        assertFalse(window.prepareGrowth());
        appendAt(FRESHNESS / 2, 2);
        assertEquals(8, window.capacity(), "it still grows, allocating then");
        assertEquals(0, window.preparedGrowthCount());
    }

    @Test
    void nothingIsBuiltBeyondTheUpperBound()
    {
        appendAt(0, 9);
        assertEquals(16, window.capacity());

        assertFalse(window.prepareGrowth(), "at the upper bound");
        appendAt(1, 12);
        assertEquals(16, window.capacity());
        assertFalse(window.prepareGrowth());
    }

    @Test
    void aShrinkDropsTheGenerationBuiltForAGrowth()
    {
        appendAt(0, 8);
        assertEquals(8, window.capacity());
        assertTrue(window.prepareGrowth(), "the doubled generation, 16");

        appendAt(1_000, 1);

        assertEquals(4, window.capacity(), "the newest quarter is stale: it halved");
        assertEquals(1, window.shrinkCount());
        assertFalse(window.prepareGrowth(), "nothing asked for any more");
        assertEquals(0, window.preparedGrowthCount());
    }

    @Test
    void aGrowthCopiesOnlyTheEventsAppendedAfterTheCopierCaughtUp()
    {
        appendAt(0, 3);
        assertTrue(window.prepareGrowth(), "half full at once: the doubled generation is built");
        assertEquals(2, window.copyAhead(2), "at most as many as asked");
        assertEquals(1, window.copyAhead(100), "then the rest of the published events");
        assertEquals(0, window.copyAhead(100), "up to date");

        appendAt(1, 2);

        assertEquals(8, window.capacity());
        assertEquals(1, window.preparedGrowthCount());
        assertEquals(1, window.growthCopyCount(), "only the event appended since (3; 4 is the one that grew it)");
        assertEquals(0, window.oldestSequence(), "nothing evicted while growing");
        assertEveryHeldEventIsIntact();
    }

    @Test
    void aGrowthWithoutACopierCopiesEveryEventItself()
    {
        appendAt(0, 3);
        assertTrue(window.prepareGrowth());

        appendAt(1, 2);

        assertEquals(1, window.preparedGrowthCount());
        assertEquals(4, window.growthCopyCount());
        assertEveryHeldEventIsIntact();
    }

    @Test
    void theCopierSkipsEventsTheWindowEvictedWhileItDidNotGrowAndTheGrowthStartsAfterThem()
    {
        appendAt(0, 3);
        assertTrue(window.prepareGrowth(), "asked for 8 at half full");
        assertEquals(1, window.copyAhead(1), "sequence 0 copied");
        // Full at an age of exactly the freshness: no growth, the window slides over 0 to 2 (which
        // the copier had partly copied) and holds 3 to 6 of the same instant.
        appendAt(FRESHNESS, 4);
        assertEquals(4, window.capacity());
        assertEquals(3, window.oldestSequence());

        assertEquals(4, window.copyAhead(100), "3 to 6, past the evicted ones");
        appendAt(FRESHNESS, 1);

        assertEquals(8, window.capacity(), "full with a fresh oldest event: doubled");
        assertEquals(1, window.preparedGrowthCount());
        assertEquals(0, window.growthCopyCount(), "the copier had every event held");
        assertEquals(3, window.oldestSequence());
        assertEquals(WatchWindow.REVISION_EVICTED, window.firstSequenceAtOrAfter(3), "revision 3 (sequence 2) is gone");
        assertEquals(3, window.firstSequenceAtOrAfter(4));
        assertEveryHeldEventIsIntact();
    }

    @Test
    void aShrinkStopsTheCopierAndDropsWhatItCopied()
    {
        appendAt(0, 8);
        assertTrue(window.prepareGrowth(), "the doubled generation, 16");
        assertEquals(8, window.copyAhead(100));

        appendAt(1_000, 1);

        assertEquals(4, window.capacity(), "the newest quarter is stale: it halved");
        assertEquals(0, window.copyAhead(100), "nothing prepared any more");
        assertEquals(0, window.preparedGrowthCount());
        assertEquals(4, window.growthCopyCount(), "the growth to 8 only (0-3), not the shrink's copy");
        assertEveryHeldEventIsIntact();
    }

    @Test
    void copyingAheadNeedsAPositiveBound()
    {
        assertThrows(IllegalArgumentException.class, () -> window.copyAhead(0));
    }

    private void growTo16()
    {
        appendAt(0, 16);
        assertEquals(16, window.capacity());
    }

    private void appendAt(final long nanos, final int count)
    {
        clock.set(nanos);
        for (int i = 0; i < count; i++)
        {
            revision++;
            put(window, revision, "key-" + revision, "value-" + revision);
        }
        window.publish();
    }

    private void assertEveryHeldEventIsIntact()
    {
        for (long sequence = window.oldestSequence(); sequence <= window.publishedSequence(); sequence++)
        {
            final EventRecord event = readOk(window, sequence);
            final long expectedRevision = sequence + 1;
            assertEquals(expectedRevision, event.revision());
            assertEquals("key-" + expectedRevision, text(event.key(), event.keyLength()));
            assertEquals("value-" + expectedRevision, text(event.value(), event.valueLength()));
        }
    }
}
