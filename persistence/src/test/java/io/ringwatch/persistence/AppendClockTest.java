package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class AppendClockTest
{
    private final AtomicLong now = new AtomicLong(1_000);
    private final AppendClock clock = new AppendClock(now::get);

    @Test
    void thePinningThreadSeesThePinnedTimeWhileTheClockMoves()
    {
        clock.pin();
        now.set(86_400_000);
        assertEquals(1_000, clock.currentTimeMillis());
        assertEquals(1_000, clock.currentTimeMillis());
    }

    @Test
    void anotherThreadReadsTheClockDuringAPin()
    {
        clock.pin();
        now.set(86_400_000);
        assertEquals(86_400_000, CompletableFuture.supplyAsync(clock::currentTimeMillis).join());
    }

    @Test
    void afterUnpinThePinningThreadReadsTheClockAgain()
    {
        clock.pin();
        now.set(5_000);
        clock.unpin();
        assertEquals(5_000, clock.currentTimeMillis());
        now.set(6_000);
        assertEquals(6_000, clock.currentTimeMillis());
    }
}
