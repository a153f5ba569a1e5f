package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingBudgetTest
{
    private static WatcherState watcher()
    {
        return new PullWatcherState(1, WatchRequest.of(KeyRange.all()), 1, null, null);
    }

    @Test
    void aWatcherHoldsNoQueueUntilItsFirstEvent()
    {
        final PendingBudget budget = new PendingBudget(4, 100);
        final WatcherState watcher = watcher();
        assertNull(watcher.pending());
        assertTrue(budget.offer(watcher, 7, 0));
        assertNotNull(watcher.pending());
        assertEquals(7, watcher.pending().poll());
    }

    @Test
    void aQueueRefusesEntriesBeyondItsDepth()
    {
        final PendingBudget budget = new PendingBudget(4, 100);
        final WatcherState watcher = watcher();
        for (int i = 0; i < 4; i++)
        {
            assertTrue(budget.offer(watcher, i, 0));
        }
        assertFalse(budget.offer(watcher, 4, 0));
        assertEquals(4, budget.counted());
    }

    @Test
    void theShareIsSharedByAllQueuesAndRecountedOnceACycleWhenSpent()
    {
        final PendingBudget budget = new PendingBudget(8, 10);
        final WatcherState first = watcher();
        final WatcherState second = watcher();
        for (int i = 0; i < 5; i++)
        {
            assertTrue(budget.offer(first, i, 0));
            assertTrue(budget.offer(second, i, 0));
        }
        assertFalse(budget.offer(first, 5, 0), "the share of 10 is spent");
        first.pending().poll();
        first.pending().poll();
        assertFalse(budget.offer(first, 5, 0), "recounted once in this cycle already");
        assertTrue(budget.offer(first, 5, 1), "the next cycle recounts and finds the two drained entries");
        assertEquals(9, budget.counted());
    }

    @Test
    void aRecountForgetsWatchersWhoseQueuesWereDrained()
    {
        final PendingBudget budget = new PendingBudget(8, 4);
        final WatcherState drained = watcher();
        final WatcherState full = watcher();
        assertTrue(budget.offer(drained, 1, 0));
        for (int i = 0; i < 3; i++)
        {
            assertTrue(budget.offer(full, i, 0));
        }
        drained.pending().poll();
        assertTrue(budget.offer(full, 3, 1));
        assertEquals(1, budget.holderCount());
    }

    @Test
    void aReleasedQueueIsHandedBackEmptiedWhenTheWatcherIsOfferedToAgain()
    {
        final PendingBudget budget = new PendingBudget(64, 1000);
        final WatcherState watcher = watcher();
        for (int i = 0; i < 64; i++)
        {
            assertTrue(budget.offer(watcher, i, 0));
        }
        assertFalse(budget.offer(watcher, 64, 0), "full: the dispatcher takes it off the routes");
        final PendingQueue grown = watcher.pending();
        assertEquals(0, grown.poll());
        budget.release(watcher);
        assertNull(watcher.pending());

        assertTrue(budget.offer(watcher, 1000, 0));
        assertSame(grown, watcher.pending(), "the same queue, no new one");
        assertEquals(64, grown.capacity(), "with the array it had grown to");
        assertEquals(1, grown.size(), "the entries queued before the release are gone");
        assertEquals(1000, grown.poll());
        assertEquals(1, budget.holderCount());
    }

    @Test
    void releasingAQueueTakesItAndItsShareAway()
    {
        final PendingBudget budget = new PendingBudget(8, 10);
        final WatcherState watcher = watcher();
        for (int i = 0; i < 8; i++)
        {
            assertTrue(budget.offer(watcher, i, 0));
        }
        assertEquals(1, budget.holderCount());
        budget.release(watcher);
        assertNull(watcher.pending());
        assertEquals(0, budget.counted());
        assertEquals(0, budget.holderCount(), "a released watcher is not kept reachable");
        assertTrue(budget.offer(watcher, 9, 0));
        assertEquals(9, watcher.pending().poll());
    }
}
