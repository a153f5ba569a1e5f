package io.ringwatch.engine.idle;

import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WakeableIdleStrategyTest
{
    private static final long PARK_FOREVER_NANOS = TimeUnit.MINUTES.toNanos(10);

    @Test
    void itSpinsAndYieldsItsCountOfStepsThenArmsTheDoorbell()
    {
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(2, 1, PARK_FOREVER_NANOS);
        idle.idle(0);
        idle.idle(0);
        idle.idle(0);
        assertFalse(idle.doorbell().isArmed(), "still spinning or yielding");
        idle.idle(0);
        assertTrue(idle.doorbell().isArmed(), "armed on the step after the spins and yields");
    }

    @Test
    void workDoneDisarmsAndStartsOverWithSpinning()
    {
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(0, 0, PARK_FOREVER_NANOS);
        idle.idle();
        assertTrue(idle.doorbell().isArmed());
        idle.idle(1);
        assertFalse(idle.doorbell().isArmed());
        idle.idle();
        assertTrue(idle.doorbell().isArmed());
        idle.reset();
        assertFalse(idle.doorbell().isArmed());
    }

    @Test
    void anAgentLoopParkedOnItIsWokenByItsDoorbell() throws InterruptedException
    {
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(10, 2, PARK_FOREVER_NANOS);
        final AtomicBoolean work = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(1);
        final Thread agent = new Thread(() ->
        {
            while (!work.get())
            {
                idle.idle(0);
            }
            done.countDown();
        });
        agent.setDaemon(true);
        agent.start();
        // Once armed, the loop's next step after its check is the ten-minute park.
        while (!idle.doorbell().isArmed())
        {
            Thread.onSpinWait();
        }

        work.set(true);
        idle.doorbell().ring();
        assertTrue(done.await(30, TimeUnit.SECONDS), "the parked loop was woken and saw the work");
    }

    @Test
    void afterItsCountedSpinsItSpinsUntilItsTimeIsUpHoweverManyStepsThatTakes()
    {
        final AtomicLong now = new AtomicLong(1_000);
        final NanoClock clock = now::get;
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(3, 500, 1, PARK_FOREVER_NANOS, clock);
        for (int i = 0; i < 100_000; i++)
        {
            idle.idle(0);
        }
        assertFalse(idle.doorbell().isArmed(), "the clock has not moved: still spinning");

        now.set(1_499);
        stepUntilArmed(idle, 200);
        assertFalse(idle.doorbell().isArmed(), "one nanosecond short of the spin time");

        now.set(1_500);
        final int steps = stepUntilArmed(idle, 200);
        assertTrue(idle.doorbell().isArmed(), "the spin time is up: one yield, then armed");
        assertTrue(steps <= 64 + 2, "the clock is read every 64 steps; took " + steps);
    }

    @Test
    void workDoneStartsTheTimedSpinAgainFromTheClockThen()
    {
        final AtomicLong now = new AtomicLong(0);
        final WakeableIdleStrategy idle = new WakeableIdleStrategy(0, 100, 0, PARK_FOREVER_NANOS, now::get);
        idle.idle(0);
        now.set(100);
        stepUntilArmed(idle, 200);
        assertTrue(idle.doorbell().isArmed());

        idle.idle(1);
        assertFalse(idle.doorbell().isArmed(), "work disarms");
        stepUntilArmed(idle, 1_000);
        assertFalse(idle.doorbell().isArmed(), "a new spin of 100 ns from the clock's 100, not over at 100");
        now.set(200);
        stepUntilArmed(idle, 200);
        assertTrue(idle.doorbell().isArmed());
    }

    @Test
    void handOffThreadsSpinForATimeOnlyWhereCoresAreToSpare()
    {
        assertEquals(0, WakeableIdleStrategy.handOffSpinNanos(1));
        assertEquals(0, WakeableIdleStrategy.handOffSpinNanos(2));
        assertEquals(0, WakeableIdleStrategy.handOffSpinNanos(WakeableIdleStrategy.SPARE_CORE_PROCESSORS - 1));
        assertEquals(WakeableIdleStrategy.SPARE_CORE_SPIN_NANOS,
            WakeableIdleStrategy.handOffSpinNanos(WakeableIdleStrategy.SPARE_CORE_PROCESSORS));
        assertEquals(WakeableIdleStrategy.SPARE_CORE_SPIN_NANOS, WakeableIdleStrategy.handOffSpinNanos(16));
        final String described = WakeableIdleStrategy.forHandOffs().toString();
        final long expected = WakeableIdleStrategy.handOffSpinNanos(Runtime.getRuntime().availableProcessors());
        assertTrue(described.contains("spinNanos=" + expected), described);
    }

    /** Idle steps until the doorbell is armed or {@code most} steps were taken; returns the steps taken. */
    private static int stepUntilArmed(final WakeableIdleStrategy idle, final int most)
    {
        int steps = 0;
        while (!idle.doorbell().isArmed() && steps < most)
        {
            idle.idle(0);
            steps++;
        }
        return steps;
    }

    @Test
    void badBoundsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, -1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(-1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, 0, 0));
        assertEquals("wakeable", new WakeableIdleStrategy().alias());
    }
}
