package io.ringwatch.engine.idle;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The park-length rule of {@link WaitPhases}: shallow parks, deep idle, and due work. A fake clock, no parking. */
class WaitPhasesDeepIdleTest
{
    private static final long SHALLOW = 1_000_000;
    private static final long DEEP_AFTER = 10_000_000;
    private static final long DEEP = 3_600_000_000_000L;

    private final AtomicLong now = new AtomicLong(5_000);
    private final WaitPhases phases = new WaitPhases(new Doorbell(), 0, 0, 0, SHALLOW, DEEP_AFTER, DEEP, now::get);

    @Test
    void parksAreShallowUntilTheThreadHasParkedForTheDeepIdleDelayThenDeep()
    {
        assertEquals(SHALLOW, phases.parkNanos(now.get()));
        assertEquals(SHALLOW, phases.parkNanos(now.addAndGet(DEEP_AFTER - 1)));
        assertEquals(DEEP, phases.parkNanos(now.addAndGet(1)));
        assertEquals(DEEP, phases.parkNanos(now.addAndGet(DEEP)));
    }

    @Test
    void workFoundStartsTheDelayAgain()
    {
        phases.parkNanos(now.get());
        assertEquals(DEEP, phases.parkNanos(now.addAndGet(DEEP_AFTER)));
        phases.reset();
        assertEquals(SHALLOW, phases.parkNanos(now.addAndGet(1)));
        assertEquals(SHALLOW, phases.parkNanos(now.addAndGet(DEEP_AFTER - 1)));
        assertEquals(DEEP, phases.parkNanos(now.addAndGet(1)));
    }

    @Test
    void dueWorkEndsADeepParkAtItsTimeAndAShallowOneIfSooner()
    {
        final AtomicLong dueAt = new AtomicLong(now.get() + 50_000_000);
        phases.dueWork(t -> dueAt.get() - t);
        phases.parkNanos(now.get());
        assertEquals(40_000_000, phases.parkNanos(now.addAndGet(DEEP_AFTER)));
        assertEquals(1_000, phases.parkNanos(now.addAndGet(40_000_000 - 1_000)));
        dueAt.set(now.get() + SHALLOW + 1);
        assertEquals(SHALLOW + 1, phases.parkNanos(now.get()));
        phases.reset();
        assertEquals(SHALLOW, phases.parkNanos(now.get()), "a shallow park is never lengthened by due work");
    }

    @Test
    void workThatMustBePolledKeepsParksShallowAndNoneLeavesThemDeep()
    {
        final AtomicLong until = new AtomicLong(0);
        phases.dueWork(t -> until.get());
        phases.parkNanos(now.get());
        assertEquals(SHALLOW, phases.parkNanos(now.addAndGet(DEEP_AFTER)));
        until.set(-5);
        assertEquals(SHALLOW, phases.parkNanos(now.addAndGet(DEEP_AFTER)), "overdue work is polled, not a zero park");
        until.set(DueWork.NONE);
        assertEquals(DEEP, phases.parkNanos(now.get()));
    }

    @Test
    void theOldConstructorNeverIdlesDeeply()
    {
        final WaitPhases shallow = new WaitPhases(new Doorbell(), 0, 0, 0, SHALLOW, now::get);
        shallow.parkNanos(now.get());
        assertEquals(SHALLOW, shallow.parkNanos(now.addAndGet(DEEP)));
    }

    @Test
    void aDeepParkShorterThanTheShallowOneIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new WaitPhases(new Doorbell(), 0, 0, 0, SHALLOW, 0, SHALLOW - 1, now::get));
        assertThrows(IllegalArgumentException.class, () -> new WaitPhases(new Doorbell(), 0, 0, 0, SHALLOW, -1, DEEP, now::get));
    }
}
