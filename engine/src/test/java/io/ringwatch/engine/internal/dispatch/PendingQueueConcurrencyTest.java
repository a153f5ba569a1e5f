package io.ringwatch.engine.internal.dispatch;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One producer and one consumer thread on the same queue, through growth and through full queues.
 */
class PendingQueueConcurrencyTest
{
    // Only a guard against a hang; the test never depends on how long it takes.
    private static final long SAFETY_TIMEOUT_SECONDS = 60;

    @Test
    void consumerSeesExactlyWhatTheProducerOfferedInOrderThroughGrowth() throws InterruptedException
    {
        // Fresh small queues, so growth happens again and again while the consumer is reading.
        for (int round = 0; round < 50; round++)
        {
            transfer(new PendingQueue(1, 1 << 12), 20_000, "growth round " + round);
        }
    }

    @Test
    void consumerSeesExactlyWhatTheProducerOfferedWhenTheQueueIsOftenFull() throws InterruptedException
    {
        transfer(new PendingQueue(2, 16), 500_000, "small bounded queue");
    }

    private static void transfer(final PendingQueue queue, final long count, final String what)
        throws InterruptedException
    {
        final AtomicReference<String> failure = new AtomicReference<>();
        final long[] received = new long[1];

        final Thread consumer = new Thread(() ->
        {
            long expected = 0;
            while (expected < count && null == failure.get())
            {
                final long value = queue.poll();
                if (PendingQueue.EMPTY == value)
                {
                    Thread.onSpinWait();
                }
                else if (value != expected)
                {
                    failure.set(what + ": expected " + expected + " but polled " + value);
                }
                else
                {
                    expected++;
                }
            }
            received[0] = expected;
        }, "pending-queue-consumer");

        final Thread producer = new Thread(() ->
        {
            for (long i = 0; i < count && null == failure.get(); i++)
            {
                while (!queue.offer(i) && null == failure.get())
                {
                    Thread.yield(); // full: on a 2-core machine, let the consumer run
                }
            }
        }, "pending-queue-producer");

        consumer.start();
        producer.start();
        producer.join(TimeUnit.SECONDS.toMillis(SAFETY_TIMEOUT_SECONDS));
        consumer.join(TimeUnit.SECONDS.toMillis(SAFETY_TIMEOUT_SECONDS));
        if (producer.isAlive() || consumer.isAlive())
        {
            failure.compareAndSet(null, what + ": did not finish, stopping threads");
            producer.join();
            consumer.join();
        }

        assertNull(failure.get());
        assertEquals(count, received[0], what);
        assertTrue(queue.isEmpty(), what);
        assertEquals(0, queue.size(), what);
    }
}
