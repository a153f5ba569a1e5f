package io.ringwatch.engine.internal.dispatch;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PendingQueueTest
{
    @Test
    void startsEmptyAndSmall()
    {
        final PendingQueue queue = new PendingQueue(8, 1 << 20);

        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertEquals(8, queue.capacity());
        assertEquals(1 << 20, queue.maxCapacity());
        assertEquals(PendingQueue.EMPTY, queue.poll());
        assertEquals(PendingQueue.EMPTY, queue.peek());
    }

    @Test
    void keepsFifoOrderAcrossManyGrowths()
    {
        final PendingQueue queue = new PendingQueue(1, 1 << 16);
        for (long i = 0; i < 1 << 16; i++)
        {
            assertTrue(queue.offer(i), "offer " + i);
        }
        assertEquals(1 << 16, queue.size());
        assertEquals(1 << 16, queue.capacity());

        for (long i = 0; i < 1 << 16; i++)
        {
            assertEquals(i, queue.poll());
        }
        assertTrue(queue.isEmpty());
        assertEquals(PendingQueue.EMPTY, queue.poll());
    }

    @Test
    void growsByDoublingOnlyWhenFull()
    {
        final PendingQueue queue = new PendingQueue(8, 64);
        for (int i = 0; i < 8; i++)
        {
            queue.offer(i);
        }
        assertEquals(8, queue.capacity());

        queue.offer(8);
        assertEquals(16, queue.capacity());
    }

    @Test
    void doesNotGrowWhileTheConsumerKeepsUp()
    {
        final PendingQueue queue = new PendingQueue(4, 1024);
        for (long i = 0; i < 1000; i++)
        {
            assertTrue(queue.offer(i));
            assertTrue(queue.offer(i));
            assertEquals(i, queue.poll());
            assertEquals(i, queue.poll());
        }
        assertEquals(4, queue.capacity());
    }

    @Test
    void offerReturnsFalseAtMaxCapacityAndAcceptsAgainOnceRoomIsMade()
    {
        final PendingQueue queue = new PendingQueue(4, 10);
        for (long i = 0; i < 10; i++)
        {
            assertTrue(queue.offer(i));
        }

        assertFalse(queue.offer(10));
        assertEquals(10, queue.size());

        assertEquals(0, queue.poll());
        assertTrue(queue.offer(10));
        assertFalse(queue.offer(11));
        for (long i = 1; i <= 10; i++)
        {
            assertEquals(i, queue.poll());
        }
        assertTrue(queue.isEmpty());
    }

    @Test
    void maxCapacityEqualToInitialNeverGrows()
    {
        final PendingQueue queue = new PendingQueue(4, 4);
        for (long i = 0; i < 4; i++)
        {
            assertTrue(queue.offer(i));
        }
        assertFalse(queue.offer(4));
        assertEquals(4, queue.capacity());
    }

    @Test
    void growsWhileTheConsumerIsStillInAnOlderArray()
    {
        final PendingQueue queue = new PendingQueue(2, 1 << 10);
        queue.offer(0);
        queue.offer(1);
        assertEquals(0, queue.poll());
        // Fill past two more growths while index 1 still waits in the first array.
        for (long i = 2; i < 20; i++)
        {
            assertTrue(queue.offer(i));
        }
        for (long i = 1; i < 20; i++)
        {
            assertEquals(i, queue.peek());
            assertEquals(i, queue.poll());
        }
        assertTrue(queue.isEmpty());
    }

    @Test
    void dropUnreadEmptiesTheQueueKeepsItsLargestArrayAndTakesMaxCapacityAgain()
    {
        final PendingQueue queue = new PendingQueue(2, 16);
        for (long i = 0; i < 16; i++)
        {
            assertTrue(queue.offer(i));
        }
        // The consumer still reads the first array, three growths behind the producer.
        assertEquals(0, queue.poll());
        assertEquals(16, queue.capacity());

        queue.dropUnread();

        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertEquals(PendingQueue.EMPTY, queue.peek());
        assertEquals(16, queue.capacity(), "no array given up, none allocated");
        assertEquals(16, queue.offeredCount(), "indices go on, they do not restart");
        assertEquals(16, queue.removedCount(), "what was unread counts as removed");
        for (long i = 100; i < 116; i++)
        {
            assertTrue(queue.offer(i), "offer " + i);
        }
        assertFalse(queue.offer(116), "still at most maxCapacity values");
        assertEquals(16, queue.capacity());
        for (long i = 100; i < 116; i++)
        {
            assertEquals(i, queue.poll());
        }
        assertTrue(queue.isEmpty());
    }

    @Test
    void dropUnreadOfAnEmptyQueueChangesNothingButLeavesItUsable()
    {
        final PendingQueue queue = new PendingQueue(4, 8);
        queue.dropUnread();
        assertTrue(queue.isEmpty());
        assertTrue(queue.offer(5));
        assertEquals(1, queue.size());
        assertEquals(5, queue.poll());
        assertEquals(4, queue.capacity());
    }

    @Test
    void interleavedOffersAndPollsMatchADeque()
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final PendingQueue queue = new PendingQueue(2, 300);
        final ArrayDeque<Long> model = new ArrayDeque<>();

        for (int op = 0; op < 50_000; op++)
        {
            final String where = "seed " + seed + ", operation " + op;
            if (random.nextInt(100) < 55)
            {
                final long value = random.nextLong() & Long.MAX_VALUE;
                final boolean accepted = queue.offer(value);
                assertEquals(model.size() < 300, accepted, where);
                if (accepted)
                {
                    model.addLast(value);
                }
            }
            else
            {
                final long expected = model.isEmpty() ? PendingQueue.EMPTY : model.removeFirst();
                assertEquals(expected, queue.poll(), where);
            }
            assertEquals(model.size(), queue.size(), where);
            assertEquals(model.isEmpty(), queue.isEmpty(), where);
        }
    }

    @Test
    void acceptsEveryValueButTheReservedOne()
    {
        final PendingQueue queue = new PendingQueue(2, 8);
        final long[] values = {Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE};
        for (final long value : values)
        {
            assertTrue(queue.offer(value));
        }
        for (final long value : values)
        {
            assertEquals(value, queue.poll());
        }
    }

    @Test
    void reservedValueIsRejectedAndChangesNothing()
    {
        final PendingQueue queue = new PendingQueue(2, 8);
        queue.offer(7);

        assertThrows(IllegalArgumentException.class, () -> queue.offer(PendingQueue.EMPTY));

        assertEquals(1, queue.size());
        assertEquals(7, queue.poll());
        assertTrue(queue.isEmpty());
    }

    @Test
    void peekDoesNotRemove()
    {
        final PendingQueue queue = new PendingQueue(2, 8);
        queue.offer(5);
        queue.offer(6);

        assertEquals(5, queue.peek());
        assertEquals(5, queue.peek());
        assertEquals(2, queue.size());
        assertEquals(5, queue.poll());
        assertEquals(6, queue.peek());
    }

    @Test
    void drainRemovesUpToTheLimitInOrder()
    {
        final PendingQueue queue = new PendingQueue(2, 64);
        for (long i = 0; i < 10; i++)
        {
            queue.offer(i);
        }
        final List<Long> seen = new ArrayList<>();

        assertEquals(4, queue.drain(seen::add, 4));
        assertEquals(List.of(0L, 1L, 2L, 3L), seen);
        assertEquals(6, queue.size());

        assertEquals(0, queue.drain(seen::add, 0));
        assertEquals(6, queue.drain(seen::add, 100));
        assertEquals(10, seen.size());
        assertEquals(9L, seen.get(9));
        assertEquals(0, queue.drain(seen::add, 100));
    }

    @Test
    void drainConsumesTheValueWhoseHandlerThrowsAndKeepsTheRest()
    {
        final PendingQueue queue = new PendingQueue(2, 8);
        queue.offer(1);
        queue.offer(2);
        queue.offer(3);

        assertThrows(IllegalStateException.class, () -> queue.drain(value ->
        {
            if (value == 2)
            {
                throw new IllegalStateException("handler failed");
            }
        }, 10));

        assertEquals(1, queue.size());
        assertEquals(3, queue.poll());
    }

    @Test
    void drainHandlerMayPollTheSameQueue()
    {
        final PendingQueue queue = new PendingQueue(2, 8);
        for (long i = 0; i < 6; i++)
        {
            queue.offer(i);
        }
        final List<Long> seen = new ArrayList<>();

        final int drained = queue.drain(value ->
        {
            seen.add(value);
            seen.add(queue.poll());
        }, 2);

        assertEquals(2, drained);
        assertEquals(List.of(0L, 1L, 2L, 3L), seen);
        assertEquals(4L, queue.poll());
    }

    @Test
    void badArgumentsAreRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> new PendingQueue(0, 8));
        assertThrows(IllegalArgumentException.class, () -> new PendingQueue(3, 8));
        assertThrows(IllegalArgumentException.class, () -> new PendingQueue(-8, 8));
        assertThrows(IllegalArgumentException.class, () -> new PendingQueue(8, 7));
        assertThrows(IllegalArgumentException.class, () -> new PendingQueue(8, PendingQueue.MAX_CAPACITY_LIMIT + 1));

        final PendingQueue queue = new PendingQueue(2, 8);
        queue.offer(1);
        assertThrows(IllegalArgumentException.class, () -> queue.drain(null, 1));
        assertThrows(IllegalArgumentException.class, () -> queue.drain(value -> { }, -1));
        assertEquals(1, queue.size());
    }
}
