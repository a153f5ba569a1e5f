package io.ringwatch.engine.idle;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
    void badBoundsAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(-1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new WakeableIdleStrategy(0, 0, 0));
        assertEquals("wakeable", new WakeableIdleStrategy().alias());
    }
}
