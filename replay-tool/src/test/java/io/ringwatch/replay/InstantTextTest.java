package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class InstantTextTest
{
    @Test
    void formatsExactlyAsInstantToStringForEveryFractionLength()
    {
        final InstantText text = new InstantText();
        final long second = 1_795_000_000L * 1_000_000_000L;
        for (final long nanos : new long[]{0, 1, 999, 1_000, 120_000, 1_000_000, 123_000_000, 999_999_999, 100_000_000, 10})
        {
            assertEquals(Instant.EPOCH.plusNanos(second + nanos).toString(), text.format(second + nanos), "nanos " + nanos);
        }
        assertEquals("1970-01-01T00:00:00Z", text.format(0));
        assertEquals(Instant.EPOCH.plusNanos(-1).toString(), text.format(-1));
    }

    @Test
    void agreesWithInstantToStringOnRandomTimestampsAcrossSecondBoundaries()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final InstantText text = new InstantText();
        long epochNanos = 1_700_000_000_000_000_000L;
        for (int i = 0; i < 100_000; i++)
        {
            epochNanos += random.nextLong(50_000_000L);
            final long value = random.nextInt(4) == 0 ? epochNanos / 1_000_000 * 1_000_000 : epochNanos;
            assertEquals(Instant.EPOCH.plusNanos(value).toString(), text.format(value), "seed " + seed);
        }
    }
}
