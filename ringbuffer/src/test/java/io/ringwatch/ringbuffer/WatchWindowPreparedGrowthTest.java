package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.TestEvents.put;
import static io.ringwatch.ringbuffer.TestEvents.readOk;
import static io.ringwatch.ringbuffer.TestEvents.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WatchWindowPreparedGrowthTest
{
    private static final long FRESHNESS = 100;

    private final ManualClock clock = new ManualClock(0);
    private final WatchWindow window = new WatchWindow(
        WindowConfig.builder().minCapacity(4).maxCapacity(16).freshnessNanos(FRESHNESS).build(), clock);
    private long revision;

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
        assertEveryEventIsIntact(5);
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
        assertEveryEventIsIntact(9);
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

    private void assertEveryEventIsIntact(final long count)
    {
        assertEquals(0, window.oldestSequence(), "nothing evicted while growing");
        assertEquals(count - 1, window.publishedSequence());
        for (long sequence = 0; sequence < count; sequence++)
        {
            final EventRecord event = readOk(window, sequence);
            assertEquals(sequence + 1, event.revision());
            assertEquals("key-" + (sequence + 1), text(event.key(), event.keyLength()));
            assertEquals("value-" + (sequence + 1), text(event.value(), event.valueLength()));
        }
    }
}
