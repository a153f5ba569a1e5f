package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class PacerTest
{
    private static final long T0 = HandWrittenLog.BASE_NANOS;
    private static final long SECOND = 1_000_000_000L;
    private static final long NOW = 5_000 * SECOND;

    @Test
    void paceValuesParse()
    {
        assertEquals(1.0, Pace.parse("original").speed());
        assertTrue(Pace.parse("max").unlimited());
        assertEquals(10.0, Pace.parse("10x").speed());
        assertEquals(0.5, Pace.parse("0.5x").speed());
        assertEquals("10x", Pace.parse("10x").toString());
        assertEquals("0.5x", Pace.parse("0.5x").toString());
        assertEquals("original", Pace.parse("1x").toString());
        assertEquals("max", Pace.parse("max").toString());
        for (final String bad : new String[]{"", "x", "0x", "-2x", "10", "fast", "NaNx", "Infinityx", "1e400x", "maxx"})
        {
            assertThrows(UsageException.class, () -> Pace.parse(bad), bad);
        }
    }

    @Test
    void theOriginalPaceWaitsTheRecordedGapsFromTheFirstRevision()
    {
        final Pacer pacer = new Pacer(Pace.parse("original"));

        assertEquals(0, pacer.delayNanos(T0, NOW), "the first revision anchors and is due at once");
        assertEquals(SECOND, pacer.delayNanos(T0 + SECOND, NOW));
        assertEquals(SECOND * 6 / 10, pacer.delayNanos(T0 + SECOND, NOW + SECOND * 4 / 10));
        assertEquals(0, pacer.delayNanos(T0 + SECOND, NOW + SECOND), "due exactly then");
        assertEquals(0, pacer.delayNanos(T0 + SECOND, NOW + 3 * SECOND), "late: at once, no catch-up sleeping");
        assertEquals(SECOND, pacer.delayNanos(T0 + 4 * SECOND, NOW + 3 * SECOND), "lateness does not shift later revisions");
    }

    @Test
    void nTimesFasterDividesEveryGap()
    {
        final Pacer tenTimes = new Pacer(Pace.parse("10x"));
        final Pacer half = new Pacer(Pace.parse("0.5x"));

        tenTimes.delayNanos(T0, NOW);
        half.delayNanos(T0, NOW);

        assertEquals(SECOND / 10, tenTimes.delayNanos(T0 + SECOND, NOW));
        assertEquals(SECOND, tenTimes.delayNanos(T0 + 10 * SECOND, NOW));
        assertEquals(2 * SECOND, half.delayNanos(T0 + SECOND, NOW));
    }

    @Test
    void maxNeverWaits()
    {
        final Pacer pacer = new Pacer(Pace.parse("max"));

        assertEquals(0, pacer.delayNanos(T0, NOW));
        assertEquals(0, pacer.delayNanos(T0 + 3600 * SECOND, NOW));
    }

    @Test
    void aTimestampThatWentBackIsDueAtOnceAndHugeGapsDoNotOverflow()
    {
        final Pacer pacer = new Pacer(Pace.parse("original"));
        pacer.delayNanos(T0, NOW);

        assertEquals(0, pacer.delayNanos(T0 - SECOND, NOW));
        final long far = pacer.delayNanos(Long.MAX_VALUE, NOW);
        assertTrue(far > 0 && far <= Long.MAX_VALUE / 2, "capped, no overflow: " + far);
    }

    @Test
    void delaysNeverGoNegativeAndShrinkAsTimePasses()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final Pacer pacer = new Pacer(new Pace(0.1 + random.nextDouble(100)));
        pacer.delayNanos(T0, NOW);
        for (int i = 0; i < 10_000; i++)
        {
            final long timestamp = T0 + random.nextLong(-SECOND, 100 * SECOND);
            final long now = NOW + random.nextLong(0, 100 * SECOND);
            final long later = now + random.nextLong(0, SECOND);
            final long delay = pacer.delayNanos(timestamp, now);
            final long laterDelay = pacer.delayNanos(timestamp, later);
            assertTrue(delay >= 0 && laterDelay >= 0, "seed " + seed);
            assertTrue(laterDelay <= delay && delay - laterDelay <= later - now, "seed " + seed);
        }
    }
}
