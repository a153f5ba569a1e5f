package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.RingWatchException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The flush-group bounds of {@link RevisionCursor}, driven by hand as the writer and the journal stage would. */
class RevisionCursorTest
{
    @Test
    void theBoundIsTheEndOfTheGroupAnnouncedWhenCalled() throws Exception
    {
        final RevisionCursor cursor = new RevisionCursor(1);
        assertEquals(1, cursor.awaitBound(), "nothing announced: the start");

        cursor.announce(2);
        final CompletableFuture<Long> bound = inAnotherThread(cursor::awaitBound);
        cursor.markEnded(4);
        assertEquals(4, result(bound), "the whole group, not its first revision");

        cursor.announce(5);
        cursor.markEnded(5);
        assertEquals(5, cursor.awaitBound(), "a group of one revision");
    }

    @Test
    void aVisibleBoundWaitsForTheGroupsEndThenForItsVisibility() throws Exception
    {
        final RevisionCursor cursor = new RevisionCursor(0);
        cursor.announce(1);
        final CompletableFuture<Long> visible = inAnotherThread(cursor::awaitApplying);
        cursor.markEnded(3);
        // In SYNC mode the journal stage raises applied later, in steps of its own.
        cursor.markApplied(2);
        cursor.markApplied(3);
        assertEquals(3, result(visible));
        assertEquals(3, cursor.applied());
    }

    @Test
    void aRollBackEndsTheWaitsAndSetsTheBoundsBack() throws Exception
    {
        final RevisionCursor cursor = new RevisionCursor(0);
        cursor.announce(1);
        cursor.markEnded(2);
        cursor.markApplied(2);
        final long stamp = cursor.readStamp();
        cursor.announce(3);
        final CompletableFuture<Long> bound = inAnotherThread(cursor::awaitBound);
        final CompletableFuture<Long> visible = inAnotherThread(cursor::awaitApplying);

        cursor.beginRollback();
        cursor.endRollback(1);
        // What a wait overlapping the roll-back returns does not hold; that it returns does.
        result(bound);
        result(visible);
        assertFalse(cursor.isStable(stamp), "readers that overlapped retry");
        assertEquals(1, cursor.awaitBound());
        assertEquals(1, cursor.awaitApplying());
        assertEquals(1, cursor.applied());
    }

    @Test
    void theGateThreadIsRefusedOnlyWhenItWouldWaitForItself()
    {
        final RevisionCursor cursor = new RevisionCursor(0);
        cursor.gatedBy(Thread.currentThread());
        cursor.announce(1);
        cursor.markEnded(2);
        assertThrows(RingWatchException.class, cursor::awaitApplying);
        cursor.markApplied(2);
        assertEquals(2, cursor.awaitApplying());
    }

    private static CompletableFuture<Long> inAnotherThread(final LongSupplier wait)
    {
        final CompletableFuture<Long> result = new CompletableFuture<>();
        final Thread thread = new Thread(() -> result.complete(wait.getAsLong()), "revision-cursor-test");
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    private static long result(final CompletableFuture<Long> wait)
        throws InterruptedException, ExecutionException, TimeoutException
    {
        return wait.get(30, TimeUnit.SECONDS);
    }
}
