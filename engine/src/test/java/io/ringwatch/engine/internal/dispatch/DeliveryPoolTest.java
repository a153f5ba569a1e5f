package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.idle.WakeableIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The delivery pool's scheduler as a specification: a task runs on one thread at a time with
 * its turns in order, is never left idle with work, and a thread blocked in a turn is made up
 * for by another, up to the cap, which retires once it has nothing to do. The pool's threads
 * park for ten minutes without spinning, so a schedule that goes unrung hangs a test past its
 * patience instead of being rescued by a timed park.
 */
class DeliveryPoolTest
{
    private static final long PARK_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private final List<DeliveryPool> pools = new ArrayList<>();
    private final List<Thread> housekeepers = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    @AfterEach
    void close()
    {
        stop.set(true);
        for (final Thread housekeeper : housekeepers)
        {
            housekeeper.interrupt();
        }
        for (final DeliveryPool pool : pools)
        {
            pool.close(TimeUnit.SECONDS.toNanos(5));
        }
    }

    @Test
    void aTaskRunsOnOneThreadAtATimeInOrderAndIsNeverLeftWithWork() throws InterruptedException
    {
        final long seed = System.nanoTime();
        System.out.println("DeliveryPoolTest seed " + seed);
        final SplittableRandom random = new SplittableRandom(seed);
        // A small ready queue, so that schedules and re-queues also take their queue-full paths.
        final DeliveryPool pool = pool(4, 4, 8);
        final int producers = 2;
        final int tasksPerProducer = 16;
        final List<Thread> threads = new ArrayList<>();
        final List<CountingTask> all = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final List<CountingTask> own = new ArrayList<>();
            for (int t = 0; t < tasksPerProducer; t++)
            {
                own.add(new CountingTask(1 + random.nextInt(3)));
            }
            all.addAll(own);
            final long producerSeed = random.nextLong();
            threads.add(new Thread(() -> produce(pool, own, new SplittableRandom(producerSeed), 20_000)));
        }
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        threads.forEach(thread -> thread.setUncaughtExceptionHandler((t, e) -> failed.compareAndSet(null, e)));
        threads.forEach(Thread::start);
        for (final Thread thread : threads)
        {
            thread.join(TimeUnit.MINUTES.toMillis(2));
            assertFalse(thread.isAlive(), "a producer hung, seed " + seed);
        }
        if (failed.get() != null)
        {
            throw new AssertionError("seed " + seed + ": " + failed.get().getMessage(), failed.get());
        }

        await(() -> all.stream().allMatch(task -> task.consumed == task.produced.get()), "every task drained, seed " + seed);
        for (final CountingTask task : all)
        {
            assertFalse(task.overlapped, "a task ran on two threads at once, seed " + seed);
            assertFalse(task.outOfOrder, "a task's turns ran out of order, seed " + seed);
        }
        await(() -> all.stream().allMatch(task -> task.turnState() == DeliveryPool.IDLE), "every task idle, seed " + seed);
    }

    @Test
    void aThreadBlockedInATurnIsMadeUpForAndOtherTasksKeepRunning() throws InterruptedException
    {
        final DeliveryPool pool = pool(1, 4, 1024);
        housekeep(pool);
        final CountDownLatch release = new CountDownLatch(1);
        final BlockingTask blocked = new BlockingTask(release);
        schedule(pool, blocked);
        assertTrue(blocked.entered.await(30, TimeUnit.SECONDS));

        final CountingTask other = new CountingTask(1);
        for (int i = 0; i < 100; i++)
        {
            other.produced.incrementAndGet();
            schedule(pool, other);
        }
        await(() -> other.consumed == 100, "the other task ran beside the blocked one");
        assertEquals(2, pool.threadCount(), "one thread started in place of the blocked one");
        release.countDown();
    }

    @Test
    void aThreadStartedInPlaceOfABlockedOneIsCountedBeforeItRunsATurn() throws InterruptedException
    {
        // The replacement runs the ready task at once; had the housekeeper counted it after the
        // start (as it once did), a caller who saw the turn could still read no replacement.
        final DeliveryPool pool = pool(1, 2, 1024);
        housekeep(pool);
        final CountDownLatch release = new CountDownLatch(1);
        final BlockingTask blocked = new BlockingTask(release);
        schedule(pool, blocked);
        assertTrue(blocked.entered.await(30, TimeUnit.SECONDS));

        final AtomicLong countedAtTurn = new AtomicLong(-1);
        final CountingTask other = new CountingTask(1)
        {
            @Override
            public void runTurn(final EventBatchView batch, final int maxEvents)
            {
                countedAtTurn.compareAndSet(-1, pool.replacedCount());
                super.runTurn(batch, maxEvents);
            }
        };
        other.produced.incrementAndGet();
        schedule(pool, other);
        await(() -> other.consumed == 1, "the other task ran on the replacement");
        assertEquals(1, countedAtTurn.get(), "the replacement was counted before it ran the turn");
        release.countDown();
    }

    @Test
    void aThreadSpinningInATurnIsMadeUpForToo()
    {
        final DeliveryPool pool = pool(1, 4, 1024);
        housekeep(pool);
        final AtomicBoolean spin = new AtomicBoolean(true);
        final CountDownLatch entered = new CountDownLatch(1);
        final CountingTask spinner = new CountingTask(1)
        {
            @Override
            public void runTurn(final EventBatchView batch, final int maxEvents)
            {
                entered.countDown();
                while (spin.get())
                {
                    Thread.onSpinWait();
                }
            }
        };
        schedule(pool, spinner);
        await(() -> entered.getCount() == 0, "the spinner entered");

        final CountingTask other = new CountingTask(1);
        other.produced.incrementAndGet();
        schedule(pool, other);
        try
        {
            await(() -> other.consumed == 1, "the other task ran beside the runnable, never-returning one");
        }
        finally
        {
            spin.set(false);
        }
    }

    @Test
    void compensationStopsAtTheCapAndResumesWhenABlockedTurnReturns() throws InterruptedException
    {
        final DeliveryPool pool = pool(1, 2, 1024);
        final CountDownLatch releaseFirst = new CountDownLatch(1);
        final CountDownLatch releaseSecond = new CountDownLatch(1);
        final BlockingTask first = new BlockingTask(releaseFirst);
        final BlockingTask second = new BlockingTask(releaseSecond);
        housekeep(pool);
        schedule(pool, first);
        assertTrue(first.entered.await(30, TimeUnit.SECONDS));
        schedule(pool, second);
        assertTrue(second.entered.await(30, TimeUnit.SECONDS), "a thread was started in place of the first");

        final CountingTask third = new CountingTask(1);
        third.produced.incrementAndGet();
        schedule(pool, third);
        // The housekeeper runs many times meanwhile: never past the cap, so the third waits.
        stop.set(true);
        housekeepers.forEach(Thread::interrupt);
        for (final Thread housekeeper : housekeepers)
        {
            housekeeper.join();
        }
        final long now = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (int i = 0; i < 100; i++)
        {
            pool.maintain(now);
        }
        assertEquals(2, pool.threadCount(), "the cap");
        assertEquals(0, third.consumed, "both threads are blocked");

        releaseFirst.countDown();
        await(() -> third.consumed == 1, "the third ran once a blocked turn returned");
        releaseSecond.countDown();
    }

    @Test
    void aThreadBeyondTheCoreCountRetiresWhenIdle() throws InterruptedException
    {
        final DeliveryPool pool = pool(1, 4, 1024, TimeUnit.MILLISECONDS.toNanos(20), DeliveryPoolTest::parkBriefly);
        housekeep(pool);
        final CountDownLatch release = new CountDownLatch(1);
        final BlockingTask blocked = new BlockingTask(release);
        schedule(pool, blocked);
        assertTrue(blocked.entered.await(30, TimeUnit.SECONDS));
        await(() -> pool.threadCount() == 2, "a thread started in place of the blocked one");

        release.countDown();
        await(() -> pool.threadCount() == 1, "back to the core count");
        final CountingTask later = new CountingTask(1);
        later.produced.incrementAndGet();
        schedule(pool, later);
        await(() -> later.consumed == 1, "the remaining thread still runs tasks");
    }

    @Test
    void aScheduleThatFindsTheQueueFullIsRefusedAndLeavesTheTaskIdleToRetry()
    {
        final CountDownLatch release = new CountDownLatch(1);
        final DeliveryPool pool = pool(1, 1, 2);
        final BlockingTask blocker = new BlockingTask(release);
        schedule(pool, blocker);
        await(() -> blocker.entered.getCount() == 0, "the only thread blocked");
        final CountingTask[] queued = {new CountingTask(1), new CountingTask(1), new CountingTask(1)};
        for (final CountingTask task : queued)
        {
            task.produced.incrementAndGet();
        }
        assertTrue(pool.schedule(queued[0]));
        assertTrue(pool.schedule(queued[1]));
        assertFalse(pool.schedule(queued[2]), "a full queue refuses");
        assertEquals(DeliveryPool.IDLE, queued[2].turnState());
        assertTrue(pool.schedule(queued[0]), "a queued task is not queued twice, and needs no retry");

        release.countDown();
        pool.wake();
        await(() -> queued[0].consumed == 1 && queued[1].consumed == 1, "the queued tasks ran");
        schedule(pool, queued[2]);
        await(() -> queued[2].consumed == 1, "the retry ran");
    }

    @Test
    void closeFromAPoolThreadReturnsWithoutWaitingForItself() throws InterruptedException
    {
        final DeliveryPool pool = pool(2, 2, 1024);
        final CountDownLatch closed = new CountDownLatch(1);
        final AtomicBoolean closerWasPoolThread = new AtomicBoolean();
        final CountingTask closer = new CountingTask(1)
        {
            @Override
            public void runTurn(final EventBatchView batch, final int maxEvents)
            {
                closerWasPoolThread.set(pool.isPoolThread());
                // Far longer than the test's patience: returning at all shows it did not wait for itself.
                pool.close(TimeUnit.MINUTES.toNanos(10));
                closed.countDown();
                super.runTurn(batch, maxEvents);
            }
        };
        closer.produced.incrementAndGet();
        schedule(pool, closer);
        assertTrue(closed.await(30, TimeUnit.SECONDS), "close() from a pool thread returned");
        assertTrue(closerWasPoolThread.get());
        await(() -> closer.consumed == 1, "the closing thread finished its turn");
    }

    /**
     * A close that gives up on a thread blocked in a listener says what it abandoned: the thread,
     * its task, and the tasks left queued with no thread. Found on main 817b6a0: close returned
     * nothing and the engine logged nothing, so an operator could not tell which watcher lost what.
     */
    @Test
    void closeThatGivesUpOnABlockedThreadNamesItsTaskAndTheTasksLeftQueued() throws InterruptedException
    {
        final DeliveryPool pool = pool(1, 1, 1024);
        final CountDownLatch release = new CountDownLatch(1);
        final BlockingTask blocked = new BlockingTask(release)
        {
            @Override
            public void describe(final StringBuilder into)
            {
                into.append("the blocked task");
            }
        };
        schedule(pool, blocked);
        assertTrue(blocked.entered.await(30, TimeUnit.SECONDS));
        // The pool's only thread is blocked and no housekeeper replaces it: these stay queued.
        schedule(pool, new CountingTask(1));
        schedule(pool, new CountingTask(1));

        final String abandoned = pool.close(TimeUnit.MILLISECONDS.toNanos(10));
        release.countDown();
        assertEquals("1 delivery thread(s) still in a listener: ringwatch-delivery-0 in the blocked task; " +
            "2 ready watcher(s) left with no thread to run them", abandoned);
    }

    @Test
    void closeThatFindsEveryThreadEndedReportsNothing() throws InterruptedException
    {
        final DeliveryPool pool = pool(2, 2, 1024);
        final CountingTask task = new CountingTask(1);
        task.produced.incrementAndGet();
        schedule(pool, task);
        await(() -> task.consumed == 1, "the task ran");
        assertNull(pool.close(TimeUnit.MINUTES.toNanos(1)));
    }

    @Test
    void threadsAreNamedAfterTheEnginesDeliveryThreads() throws InterruptedException
    {
        final DeliveryPool pool = pool(2, 2, 1024);
        final List<String> names = new ArrayList<>();
        final CountDownLatch ran = new CountDownLatch(1);
        final CountingTask task = new CountingTask(1)
        {
            @Override
            public void runTurn(final EventBatchView batch, final int maxEvents)
            {
                synchronized (names)
                {
                    names.add(Thread.currentThread().getName());
                }
                ran.countDown();
                super.runTurn(batch, maxEvents);
            }
        };
        task.produced.incrementAndGet();
        schedule(pool, task);
        assertTrue(ran.await(30, TimeUnit.SECONDS));
        synchronized (names)
        {
            assertTrue(names.get(0).matches("ringwatch-delivery-[01]"), names.toString());
        }
    }

    /**
     * A dispatcher's part: adds work to its own tasks a few at a time, then schedules each
     * touched task (retrying what a full queue refused) and wakes the pool once per batch. Now
     * and then it stops and waits for its tasks to drain: a schedule lost in a race with a turn
     * leaves a task idle with work, which no later schedule then rescues.
     */
    private void produce(final DeliveryPool pool, final List<CountingTask> tasks, final SplittableRandom random, final int units)
    {
        final ArrayDeque<CountingTask> retries = new ArrayDeque<>();
        int left = units;
        int untilQuiet = 1 + random.nextInt(16);
        while (left > 0 || !retries.isEmpty())
        {
            final int batch = Math.min(left, 1 + random.nextInt(8));
            final List<CountingTask> touched = new ArrayList<>();
            for (int i = 0; i < batch; i++)
            {
                final CountingTask task = tasks.get(random.nextInt(tasks.size()));
                task.produced.incrementAndGet();
                touched.add(task);
            }
            left -= batch;
            for (int i = 0, size = retries.size(); i < size; i++)
            {
                final CountingTask task = retries.poll();
                if (!pool.schedule(task))
                {
                    retries.offer(task);
                }
            }
            for (final CountingTask task : touched)
            {
                if (!pool.schedule(task))
                {
                    retries.offer(task);
                }
            }
            pool.wake();
            if (!retries.isEmpty())
            {
                Thread.yield();
            }
            else if (--untilQuiet == 0)
            {
                untilQuiet = 1 + random.nextInt(16);
                await(() -> tasks.stream().allMatch(task -> task.consumed == task.produced.get()), "the producer's tasks drained");
            }
        }
    }

    private DeliveryPool pool(final int core, final int max, final int queueCapacity)
    {
        return pool(core, max, queueCapacity, TimeUnit.MINUTES.toNanos(10), () -> new WakeableIdleStrategy(0, 0, PARK_NANOS));
    }

    private DeliveryPool pool(final int core, final int max, final int queueCapacity, final long keepAliveNanos,
        final Supplier<IdleStrategy> idle)
    {
        final DeliveryPool pool = new DeliveryPool("ringwatch-delivery", 4, idle, core, max,
            TimeUnit.MILLISECONDS.toNanos(1), keepAliveNanos, TimeUnit.MINUTES.toNanos(10), queueCapacity);
        pools.add(pool);
        pool.start();
        return pool;
    }

    /** Parks of 1 ms, so that an idle surplus thread looks at its keep-alive. */
    private static IdleStrategy parkBriefly()
    {
        return new WakeableIdleStrategy(0, 0, TimeUnit.MILLISECONDS.toNanos(1));
    }

    private void housekeep(final DeliveryPool pool)
    {
        final Thread housekeeper = new Thread(() ->
        {
            while (!stop.get())
            {
                pool.maintain(System.nanoTime());
                try
                {
                    Thread.sleep(1);
                }
                catch (final InterruptedException e)
                {
                    return;
                }
            }
        }, "test-housekeeper");
        housekeeper.setDaemon(true);
        housekeepers.add(housekeeper);
        housekeeper.start();
    }

    private static void schedule(final DeliveryPool pool, final DeliveryTask task)
    {
        assertTrue(pool.schedule(task), "the ready queue had room");
        pool.wake();
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** A task whose work is a count of units; a turn takes up to {@code perTurn} of them. */
    static class CountingTask implements DeliveryTask
    {
        final AtomicLong produced = new AtomicLong();
        private final AtomicInteger turnState = new AtomicInteger();
        private final AtomicInteger inside = new AtomicInteger();
        private final int perTurn;
        volatile long consumed;
        volatile boolean overlapped;
        volatile boolean outOfOrder;
        private long lastTurnEnd;

        CountingTask(final int perTurn)
        {
            this.perTurn = perTurn;
        }

        @Override
        public int turnState()
        {
            return turnState.get();
        }

        @Override
        public boolean compareAndSetTurnState(final int expected, final int updated)
        {
            return turnState.compareAndSet(expected, updated);
        }

        @Override
        public void runTurn(final EventBatchView batch, final int maxEvents)
        {
            if (inside.getAndIncrement() != 0)
            {
                overlapped = true;
            }
            final long from = consumed;
            if (from != lastTurnEnd)
            {
                outOfOrder = true;
            }
            final long to = Math.min(produced.get(), from + perTurn);
            lastTurnEnd = to;
            consumed = to;
            inside.decrementAndGet();
        }

        @Override
        public boolean hasWork()
        {
            final boolean work = consumed < produced.get();
            if (!work)
            {
                // Widens the race the turn states exist for: a schedule landing between this look
                // and the pool's move to IDLE.
                for (int i = ThreadLocalRandom.current().nextInt(200); i > 0; i--)
                {
                    Thread.onSpinWait();
                }
            }
            return work;
        }

        @Override
        public void overstayed(final long timeoutNanos)
        {
        }
    }

    /** A task whose first turn blocks until released. */
    static class BlockingTask extends CountingTask
    {
        final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release;

        BlockingTask(final CountDownLatch release)
        {
            super(1);
            this.release = release;
        }

        @Override
        public void runTurn(final EventBatchView batch, final int maxEvents)
        {
            entered.countDown();
            try
            {
                release.await();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
