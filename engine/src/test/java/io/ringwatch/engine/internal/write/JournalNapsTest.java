package io.ringwatch.engine.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.Test;

class JournalNapsTest
{
    private static final int RING = 4096;
    /** Rates in revisions per millisecond. */
    private static final long MS = 1_000_000;

    private long now = 1_000 * MS;

    /** A clock that moves a little per batch, for the tests that do not look at nap lengths. */
    private long tick()
    {
        now += 10_000;
        return now;
    }

    /**
     * Naps as the journal thread would for {@code batches} batches, with writes arriving as the
     * given function of the nap just taken; returns the nap after the last.
     */
    private long run(final JournalNaps naps, final int batches, final LongUnaryOperator arrivalsDuringNap)
    {
        for (int i = 0; i < batches; i++)
        {
            assertTrue(naps.napNow(), "batch " + i + " napped");
            final long nap = naps.napNanos();
            now += nap;
            naps.afterBatch(Math.max(1, arrivalsDuringNap.applyAsLong(nap)), now);
        }
        return naps.napNanos();
    }

    @Test
    void aLoneWriteIsFollowedByTheDoorbell()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(1, tick());
        assertFalse(naps.napNow());
    }

    @Test
    void aBatchOfSixteenStartsNapping()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(JournalNaps.NAP_AFTER_BATCH - 1, tick());
        assertFalse(naps.napNow());
        naps.afterBatch(JournalNaps.NAP_AFTER_BATCH, tick());
        assertTrue(naps.napNow());
    }

    @Test
    void aSmallBatchThatANapFoundKeepsNapping()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, tick());
        assertTrue(naps.napNow());
        naps.afterBatch(3, tick());
        assertTrue(naps.napNow());
        naps.afterBatch(1, tick());
        assertTrue(naps.napNow());
    }

    @Test
    void aNapThatFindsNothingFallsBackToTheDoorbellAndALoneWriteThenDoesNotNap()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, tick());
        assertTrue(naps.napNow());
        assertFalse(naps.napNow());
        naps.afterBatch(1, tick());
        assertFalse(naps.napNow());
    }

    @Test
    void anOpenStreamLengthensTheNapToTheLongest()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, now);
        assertEquals(JournalNaps.NAP_NANOS, naps.napNanos());
        // 100 writes a millisecond, whatever the stage does: the longest nap finds 100.
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 10, nap -> 100 * nap / MS));
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 1_000, nap -> 100 * nap / MS));
    }

    @Test
    void anOpenStreamKeepsTheNapWhereItFindsAboutOneHundredAndTwentyEight()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, now);
        // 200 writes a millisecond: 200 µs find 40, 400 µs 80, 800 µs 160, so the nap goes between 400 and 800 µs.
        assertEquals(4 * JournalNaps.NAP_NANOS, run(naps, 2, nap -> 200 * nap / MS));
        for (int i = 0; i < 100; i++)
        {
            final long nap = run(naps, 1, n -> 200 * n / MS);
            assertTrue(nap == 2 * JournalNaps.NAP_NANOS || nap == 4 * JournalNaps.NAP_NANOS, "nap " + nap);
        }
    }

    @Test
    void aNapThatFindsManyKeepsTheShortestNap()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(200, now);
        for (int i = 0; i < 100; i++)
        {
            // A million writes a second, the first nap finding 200: a longer one would only delay their acknowledgements.
            assertEquals(JournalNaps.NAP_NANOS, run(naps, 1, nap -> 1_000 * nap / MS), "batch " + i);
        }
        for (int i = 0; i < 100; i++)
        {
            // One producer that keeps 512 writes outstanding and sends one a microsecond while it may.
            assertEquals(JournalNaps.NAP_NANOS, run(naps, 1, nap -> Math.min(512, 1_000 * nap / MS)), "batch " + i);
        }
    }

    @Test
    void aStreamThatSpeedsUpAtALongerNapHalvesItDownToTheShortest()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, now);
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 10, nap -> 100 * nap / MS));
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 1, nap -> 127 * nap / MS));
        assertEquals(JournalNaps.MAX_NAP_NANOS / 2, run(naps, 1, nap -> 128 * nap / MS));
        // A thousand writes a millisecond: 500 µs find 500, 250 µs 250, then the first nap's length.
        assertEquals(JournalNaps.NAP_NANOS, run(naps, 2, nap -> 1_000 * nap / MS));
        assertEquals(JournalNaps.NAP_NANOS, run(naps, 10, nap -> 1_000 * nap / MS));
    }

    @Test
    void writersWaitingForTheirAcknowledgementsKeepTheShortestNapButForOneTryInAHold()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(32, now);
        // 32 writers, each sending its next write only once acknowledged: every nap finds 32.
        int longer = 0;
        for (int i = 0; i < 10 * (JournalNaps.HOLD_BATCHES + 2); i++)
        {
            if (run(naps, 1, nap -> 32) > JournalNaps.NAP_NANOS)
            {
                longer++;
            }
        }
        assertTrue(longer <= 10 * JournalNaps.SLOWER_BATCHES + 2, longer + " longer naps");
        assertTrue(longer >= 1, "a longer nap is tried again after a hold");
    }

    @Test
    void aStreamThatSlowsAtTheLongestNapGoesBackToTheShortest()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, now);
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 10, nap -> 100 * nap / MS));
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 1, nap -> 25 * nap / MS), "one slower batch is a lull");
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 1, nap -> 100 * nap / MS));
        assertEquals(JournalNaps.NAP_NANOS, run(naps, JournalNaps.SLOWER_BATCHES, nap -> 25 * nap / MS));
    }

    @Test
    void aDoorbellWaitStartsTheNextNapsAtTheShortest()
    {
        final JournalNaps naps = new JournalNaps(true, RING);
        naps.afterBatch(40, now);
        assertEquals(JournalNaps.MAX_NAP_NANOS, run(naps, 10, nap -> 100 * nap / MS));
        assertTrue(naps.napNow());
        assertFalse(naps.napNow());
        naps.afterBatch(40, tick());
        assertTrue(naps.napNow());
        assertEquals(JournalNaps.NAP_NANOS, naps.napNanos());
    }

    @Test
    void syncAndSmallRingsNeverNap()
    {
        final JournalNaps sync = new JournalNaps(false, RING);
        sync.afterBatch(1_000, tick());
        assertFalse(sync.napNow());
        final JournalNaps small = new JournalNaps(true, JournalNaps.NAP_MIN_RING_SLOTS - 1);
        small.afterBatch(1_000, tick());
        assertFalse(small.napNow());
    }
}
