package io.ringwatch.engine.idle;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DoorbellTest
{
    /** Parks far longer than any test waits: an owner that wakes was woken by a ring. */
    private static final long PARK_FOREVER_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long TEST_WAIT_SECONDS = 30;

    private final Doorbell doorbell = new Doorbell();

    @Test
    void aRingWakesAnArmedOwnerParkedLongerThanTheTestWaits() throws InterruptedException
    {
        final AtomicBoolean work = new AtomicBoolean();
        final CountDownLatch sawWork = new CountDownLatch(1);
        final Thread owner = new Thread(() ->
        {
            while (true)
            {
                doorbell.arm();
                if (work.get())
                {
                    doorbell.disarm();
                    sawWork.countDown();
                    return;
                }
                doorbell.park(PARK_FOREVER_NANOS);
            }
        });
        owner.setDaemon(true);
        owner.start();
        awaitArmed();

        work.set(true);
        assertTrue(doorbell.ring(), "the ring found the owner armed");
        assertTrue(sawWork.await(TEST_WAIT_SECONDS, TimeUnit.SECONDS), "the owner woke and saw the work");
    }

    @Test
    void aRingBetweenArmAndParkMakesTheParkReturnAtOnce()
    {
        doorbell.arm();
        assertTrue(doorbell.ring());
        final long start = System.nanoTime();
        doorbell.park(PARK_FOREVER_NANOS);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(TEST_WAIT_SECONDS), "the park returned");
    }

    @Test
    void aRingDisarmsSoOnlyTheFirstOfSeveralRingsWakes()
    {
        doorbell.arm();
        assertTrue(doorbell.ring());
        assertFalse(doorbell.isArmed());
        assertFalse(doorbell.ring());
    }

    @Test
    void aRingWakesNobodyWhenTheOwnerIsNotArmed()
    {
        assertFalse(doorbell.ring());
        doorbell.arm();
        doorbell.disarm();
        assertFalse(doorbell.isArmed());
        assertFalse(doorbell.ring());
    }

    private void awaitArmed()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TEST_WAIT_SECONDS);
        while (!doorbell.isArmed())
        {
            assertTrue(System.nanoTime() < deadline, "the owner armed");
            Thread.onSpinWait();
        }
    }
}
