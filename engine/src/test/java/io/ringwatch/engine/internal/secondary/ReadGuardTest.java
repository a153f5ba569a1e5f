package io.ringwatch.engine.internal.secondary;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadGuardTest
{
    private final AtomicInteger released = new AtomicInteger();
    private final ReadGuard guard = new ReadGuard(released::incrementAndGet);

    @Test
    void retiringWithNoReaderReleasesAtOnceAndRefusesReaders()
    {
        guard.retire();
        guard.retire();

        assertEquals(1, released.get());
        assertFalse(guard.enter());
    }

    @Test
    void theLastReaderOutAfterRetireReleasesExactlyOnce()
    {
        assertTrue(guard.enter());
        assertTrue(guard.enter());
        guard.retire();
        assertFalse(guard.enter());

        guard.leave();
        assertEquals(0, released.get());
        guard.leave();
        assertEquals(1, released.get());
    }
}
