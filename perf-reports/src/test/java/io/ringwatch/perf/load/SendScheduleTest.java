package io.ringwatch.perf.load;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SendScheduleTest
{
    @Test
    void spacesWritesEvenlyFromTheStart()
    {
        final SendSchedule schedule = new SendSchedule(1_000, 4);

        assertEquals(1_000, schedule.intendedNanos(0));
        assertEquals(1_000 + 250_000_000, schedule.intendedNanos(1));
        assertEquals(1_000 + 1_000_000_000, schedule.intendedNanos(4));
        assertEquals(1_000 + 2_750_000_000L, schedule.intendedNanos(11));
    }

    @Test
    void roundsDownWhenTheRateDoesNotDivideASecond()
    {
        final SendSchedule schedule = new SendSchedule(0, 3);

        assertEquals(333_333_333, schedule.intendedNanos(1));
        assertEquals(666_666_666, schedule.intendedNanos(2));
        assertEquals(1_000_000_000, schedule.intendedNanos(3));
    }

    @Test
    void staysExactForRunsOfDays()
    {
        final SendSchedule schedule = new SendSchedule(-5, 1_000_000);
        final long oneDayOfWrites = 86_400L * 1_000_000;

        assertEquals(-5 + 86_400L * 1_000_000_000L, schedule.intendedNanos(oneDayOfWrites));
    }

    @Test
    void writesBeforeIsTheFirstIndexAtOrAfterTheOffset()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 10_000; trial++)
        {
            final long start = random.nextLong(-1_000_000_000L, 1_000_000_000L);
            final long rate = random.nextLong(1, 2_000_000);
            final long offset = random.nextLong(0, 100_000_000_000L);
            final SendSchedule schedule = new SendSchedule(start, rate);

            final long first = schedule.writesBefore(offset);

            final String context = "seed " + seed + " trial " + trial + " rate " + rate + " offset " + offset;
            assertTrue(schedule.intendedNanos(first) >= start + offset, context);
            assertTrue(first == 0 || schedule.intendedNanos(first - 1) < start + offset, context);
        }
    }

    @Test
    void intendedTimesNeverDecrease()
    {
        final SendSchedule schedule = new SendSchedule(0, 7_777);
        long previous = Long.MIN_VALUE;
        for (long i = 0; i < 100_000; i++)
        {
            final long intended = schedule.intendedNanos(i);
            assertTrue(intended > previous, "index " + i);
            previous = intended;
        }
    }

    @Test
    void refusesABadRateOrIndex()
    {
        assertThrows(IllegalArgumentException.class, () -> new SendSchedule(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new SendSchedule(0, 10).intendedNanos(-1));
        assertThrows(IllegalArgumentException.class, () -> new SendSchedule(0, 10).writesBefore(-1));
    }
}
