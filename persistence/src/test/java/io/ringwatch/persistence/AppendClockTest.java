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

    @Test
    void aClockSteppingBackPinsTheLatestTimeAlreadyPinned()
    {
        clock.pin();
        clock.unpin();
        now.set(500);
        clock.pin();
        assertEquals(1_000, clock.currentTimeMillis());
        clock.unpin();
        assertEquals(1_000, CompletableFuture.supplyAsync(clock::currentTimeMillis).join());
        now.set(2_000);
        clock.pin();
        assertEquals(2_000, clock.currentTimeMillis());
    }

    @Test
    void theOpensFloorHoldsUntilTheClockPassesIt()
    {
        clock.holdAtLeast(9_000);
        clock.pin();
        assertEquals(9_000, clock.currentTimeMillis());
        clock.unpin();
        assertEquals(9_000, clock.currentTimeMillis());
        now.set(10_000);
        assertEquals(10_000, clock.currentTimeMillis());
    }
}
