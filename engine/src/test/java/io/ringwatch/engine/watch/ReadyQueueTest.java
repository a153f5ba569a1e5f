package io.ringwatch.engine.watch;

import io.ringwatch.engine.idle.Doorbell;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ReadyQueue} on its own: marks, takes, unmarks and nesting. The protocol's races are
 * jcstress's ({@code ReadyQueueStress}); these pin the single-threaded contract and that concurrent
 * marks never put an entry in twice.
 */
class ReadyQueueTest
{
    private final Doorbell doorbell = new Doorbell();
    private final ReadyQueue<String> queue = ReadyQueue.wakingWith(doorbell);

    @Test
    void anEntryIsMarkedAndTakenOnceHoweverOftenItIsMarked()
    {
        final ReadyQueue.Entry<String> entry = queue.entry("a");
        assertFalse(entry.isMarked());
        assertTrue(queue.isEmpty());

        assertTrue(entry.mark(), "the first mark adds it");
        assertFalse(entry.mark(), "a second mark finds it marked");
        assertFalse(queue.isEmpty());
        assertSame(entry, queue.poll());
        assertEquals("a", entry.attachment());
        assertFalse(entry.mark(), "taken, it stays marked until unmarked");
        assertNull(queue.poll());
        assertTrue(queue.isEmpty());
        assertTrue(entry.isMarked());
    }

    @Test
    void drainHandsOverEveryMarkedEntryInSomeOrder()
    {
        final List<ReadyQueue.Entry<String>> entries = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            entries.add(queue.entry("e" + i));
        }
        for (int i = entries.size() - 1; i >= 0; i -= 2)
        {
            entries.get(i).mark();
        }
        entries.get(1).mark();
        final Set<String> drained = new HashSet<>();
        assertEquals(4, queue.drain(entry -> assertTrue(drained.add(entry.attachment()), "once each")));
        assertEquals(Set.of("e0", "e1", "e2", "e4"), drained);
        assertEquals(0, queue.drain(entry -> drained.add("again")));
    }

    @Test
    void anUnmarkedEntryIsAddedByTheNextMarkAndARemarkKeepsItOut()
    {
        final ReadyQueue.Entry<String> entry = queue.entry("a");
        entry.mark();
        assertSame(entry, queue.poll());

        entry.unmark();
        assertFalse(entry.isMarked());
        assertTrue(entry.mark(), "unmarked, it is added again");
        assertSame(entry, queue.poll());

        entry.unmark();
        assertTrue(entry.remark(), "the consumer keeps it, marked, in a list of its own");
        assertFalse(entry.mark(), "so a mark adds nothing");
        assertNull(queue.poll());
        entry.unmark();
        entry.mark();
        assertFalse(entry.remark(), "a mark came first: the entry is in the queue, not the consumer's");
        assertSame(entry, queue.poll());
    }

    @Test
    void aMarkThatAddsRingsTheDoorbellAndOneThatFindsTheEntryMarkedDoesNot()
    {
        final ReadyQueue.Entry<String> entry = queue.entry("a");
        doorbell.arm();
        entry.mark();
        assertFalse(doorbell.isArmed(), "the adding mark rang");
        doorbell.arm();
        entry.mark();
        assertTrue(doorbell.isArmed(), "a mark that added nothing rang nothing");
        doorbell.disarm();
    }

    @Test
    void anInnerQueueMarksItsEntryInTheOuterQueueOnceUntilTheConsumerUnmarksIt()
    {
        final ReadyQueue.Entry<String> group = queue.entry("group");
        final ReadyQueue<String> inner = ReadyQueue.inside(group);
        final ReadyQueue.Entry<String> a = inner.entry("a");
        final ReadyQueue.Entry<String> b = inner.entry("b");

        doorbell.arm();
        a.mark();
        assertFalse(doorbell.isArmed(), "marking the group rang the outer queue's doorbell");
        b.mark();
        assertSame(group, queue.poll());
        assertNull(queue.poll(), "the group is in the outer queue once");
        assertEquals(2, inner.drain(entry -> entry.unmark()));

        group.unmark();
        assertTrue(inner.isEmpty());
        a.mark();
        assertSame(group, queue.poll(), "an inner mark after the unmark adds the group again");
        assertSame(a, inner.poll());
    }

    @Test
    void concurrentMarksAddEachEntryOnceSoTheQueueNeverHoldsMoreThanItsEntries() throws InterruptedException
    {
        final int count = 64;
        final List<ReadyQueue.Entry<String>> entries = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            entries.add(queue.entry("e" + i));
        }
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            final Thread producer = new Thread(() ->
            {
                awaitQuietly(start);
                for (int round = 0; round < 1_000; round++)
                {
                    for (final ReadyQueue.Entry<String> entry : entries)
                    {
                        entry.mark();
                    }
                }
            });
            producer.start();
            producers.add(producer);
        }
        final Set<String> seen = new HashSet<>();
        start.countDown();
        for (final Thread producer : producers)
        {
            producer.join();
        }
        queue.drain(entry -> assertTrue(seen.add(entry.attachment()), "taken twice: " + entry.attachment()));
        assertEquals(count, seen.size(), "every entry, once");
        assertTrue(queue.isEmpty());
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
