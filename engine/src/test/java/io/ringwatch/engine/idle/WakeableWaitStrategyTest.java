package io.ringwatch.engine.idle;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WakeableWaitStrategyTest
{
    private static final long PARK_FOREVER_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long TEST_WAIT_SECONDS = 30;

    private final WakeableWaitStrategy strategy = new WakeableWaitStrategy(5, 1, PARK_FOREVER_NANOS);

    @Test
    void aPublishWakesTheConsumerParkedOnAnEmptyRing() throws Exception
    {
        final CountDownLatch handled = new CountDownLatch(1);
        final Disruptor<long[]> disruptor = new Disruptor<>(() -> new long[1], 16, DaemonThreadFactory.INSTANCE,
            ProducerType.MULTI, strategy);
        disruptor.handleEventsWith((event, sequence, endOfBatch) -> handled.countDown());
        final RingBuffer<long[]> ring = disruptor.start();
        try
        {
            awaitArmed();
            ring.publish(ring.next());
            assertTrue(handled.await(TEST_WAIT_SECONDS, TimeUnit.SECONDS), "the parked consumer was woken by the publish");
        }
        finally
        {
            disruptor.halt();
        }
    }

    @Test
    void theDefaultYieldsBeforeItParksAndAPublishStillWakesIt() throws Exception
    {
        final WakeableWaitStrategy defaults = new WakeableWaitStrategy();
        assertTrue(defaults.toString().contains("spins=" + WakeableIdleStrategy.DEFAULT_SPINS + ",") &&
            defaults.toString().contains("yields=" + WakeableWaitStrategy.DEFAULT_YIELDS + ","), defaults.toString());
        final RingBuffer<long[]> ring = RingBuffer.createMultiProducer(() -> new long[1], 16, defaults);
        final SequenceBarrier barrier = ring.newBarrier();
        final CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> waitForFirst(barrier));
        awaitArmed(defaults);

        ring.publish(ring.next());
        assertEquals(0L, waiting.get(TEST_WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void aSecondConsumerThreadIsRefusedAndTheFirstStillWakes() throws Exception
    {
        final RingBuffer<long[]> ring = RingBuffer.createMultiProducer(() -> new long[1], 16, strategy);
        final SequenceBarrier barrier = ring.newBarrier();
        final CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> waitForFirst(barrier));
        awaitArmed();

        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> barrier.waitFor(0));
        assertTrue(refused.getMessage().contains("one consumer thread"), refused.getMessage());

        ring.publish(ring.next());
        assertEquals(0L, first.get(TEST_WAIT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void anAlertWakesAParkedConsumerWithAlertException() throws Exception
    {
        final RingBuffer<long[]> ring = RingBuffer.createMultiProducer(() -> new long[1], 16, strategy);
        final SequenceBarrier barrier = ring.newBarrier();
        final CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> waitForFirst(barrier));
        awaitArmed();

        barrier.alert();
        final ExecutionException failure = assertThrows(ExecutionException.class,
            () -> waiting.get(TEST_WAIT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(AlertException.class, failure.getCause().getCause());
    }

    /**
     * Waits through the barrier, which hands the strategy the ring's cursor. A multi-producer
     * cursor moves at the claim, so a wait that ends between the test's claim and its publish
     * returns less than asked: it waits again, as the Disruptor's event processors do.
     */
    private static long waitForFirst(final SequenceBarrier barrier)
    {
        try
        {
            long available;
            do
            {
                available = barrier.waitFor(0);
            }
            while (available < 0);
            return available;
        }
        catch (final AlertException e)
        {
            throw new IllegalStateException(e);
        }
        catch (final InterruptedException | com.lmax.disruptor.TimeoutException e)
        {
            throw new AssertionError(e);
        }
    }

    private void awaitArmed()
    {
        awaitArmed(strategy);
    }

    private static void awaitArmed(final WakeableWaitStrategy waiting)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TEST_WAIT_SECONDS);
        while (!waiting.doorbell().isArmed())
        {
            assertTrue(System.nanoTime() < deadline, "the consumer armed");
            Thread.onSpinWait();
        }
    }
}
