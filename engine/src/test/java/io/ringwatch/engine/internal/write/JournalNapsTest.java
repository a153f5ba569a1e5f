package io.ringwatch.engine.internal.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JournalNapsTest
{
    private static final int RING = 4096;

    @Test
    void aLoneWriteIsFollowedByTheDoorbell()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(1);
        assertFalse(naps.napNow());
    }

    @Test
    void aBatchOfSixteenStartsNapping()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(JournalNaps.NAP_AFTER_BATCH - 1);
        assertFalse(naps.napNow());
        naps.afterBatch(JournalNaps.NAP_AFTER_BATCH);
        assertTrue(naps.napNow());
    }

    @Test
    void aSmallBatchThatANapFoundKeepsNapping()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40);
        assertTrue(naps.napNow());
        naps.afterBatch(3);
        assertTrue(naps.napNow());
        naps.afterBatch(1);
        assertTrue(naps.napNow());
    }

    @Test
    void aNapThatFindsNothingFallsBackToTheDoorbellAndALoneWriteThenDoesNotNap()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40);
        assertTrue(naps.napNow());
        assertFalse(naps.napNow());
        naps.afterBatch(1);
        assertFalse(naps.napNow());
    }

    @Test
    void syncAndSmallRingsNeverNap()
    {
        final JournalNaps sync = new JournalNaps(false, RING);
        sync.afterBatch(1_000);
        assertFalse(sync.napNow());
        final JournalNaps small = new JournalNaps(true, JournalNaps.NAP_MIN_RING_SLOTS - 1);
        small.afterBatch(1_000);
        assertFalse(small.napNow());
    }
}
