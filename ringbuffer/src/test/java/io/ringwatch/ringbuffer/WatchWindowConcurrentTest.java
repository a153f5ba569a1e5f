package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.DerivedEvents.assertIsEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * One writer and two readers over a small window that laps, evicts for data and resizes both
 * ways (the writer drives a fake clock: bursts grow the window, slow stretches shrink it), while
 * a fourth thread builds the generations the writer expects to grow into and copies the published
 * events into them ahead of the growth, in chunks of random size, as the engine's housekeeper does
 * (whether a growth finds one ready, copied in part or whole or held by the copier, is up to the
 * race: each way the readers must see the same events).
 * Every successful read must be exactly the event written; a lapped or evicted answer must be
 * true. Bounded by the number of events; the seed is in every failure message.
 */
class WatchWindowConcurrentTest
{
    private static final int EVENTS = 150_000;
    private static final int CLOCK_PHASE_EVENTS = 3_000;
    private static final long FRESHNESS_NANOS = 1_000;
    private static final long SAFETY_NET_SECONDS = 60;

    private final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
    private final String context = "seed " + seed + " (rerun with -Dringwatch.seed=" + seed + ")";
    private final ManualClock clock = new ManualClock(0);
    private final WatchWindow window = new WatchWindow(
        WindowConfig.builder()
            .minCapacity(16)
            .maxCapacity(256)
            .freshnessNanos(FRESHNESS_NANOS)
            .maxEventBytes(DerivedEvents.MAX_EVENT_BYTES)
            .dataBytesPerEvent(256)
            .build(),
        clock);
    private final AtomicBoolean writerDone = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong followerReads = new AtomicLong();
    private final AtomicLong randomReads = new AtomicLong();

    @Test
    void readersSeeOnlyWholeEventsAcrossLappingEvictionAndResizes() throws InterruptedException
    {
        final Thread writer = start("writer", this::write);
        final Thread follower = start("follower", this::follow);
        final Thread sampler = start("sampler", this::sample);
        final Thread preparer = start("preparer", this::prepareGrowth);

        for (final Thread thread : new Thread[]{ writer, follower, sampler, preparer })
        {
            thread.join(TimeUnit.SECONDS.toMillis(SAFETY_NET_SECONDS));
            assertFalse(thread.isAlive(), thread.getName() + " did not finish; " + context);
        }
        if (null != failure.get())
        {
            throw new AssertionError(context, failure.get());
        }
        assertEquals(EVENTS - 1, window.publishedSequence(), context);
        assertTrue(window.growCount() > 0, "grew; " + context);
        assertTrue(window.shrinkCount() > 0, "shrank; " + context);
        assertTrue(window.dataEvictionCount() > 0, "evicted for data; " + context);
        assertTrue(followerReads.get() > 0, "follower read events; " + context);
        assertTrue(randomReads.get() > 0, "sampler read events; " + context);
    }

    private Thread start(final String name, final Runnable task)
    {
        final Thread thread = new Thread(
            () ->
            {
                try
                {
                    task.run();
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                    writerDone.set(true);
                }
            },
            name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void write()
    {
        final Random random = new Random(seed);
        final DerivedEvents events = new DerivedEvents();
        int untilPublish = 1 + random.nextInt(6);
        for (long sequence = 0; sequence < EVENTS; sequence++)
        {
            final boolean burst = (sequence / CLOCK_PHASE_EVENTS) % 2 == 0;
            clock.advance(burst ? 1 : 200);
            events.append(window, sequence);
            if (--untilPublish == 0)
            {
                window.publish();
                untilPublish = 1 + random.nextInt(6);
            }
        }
        window.publish();
        writerDone.set(true);
    }

    private void prepareGrowth()
    {
        final Random random = new Random(seed + 3);
        while (!writerDone.get())
        {
            final boolean built = window.prepareGrowth();
            final int copied = window.copyAhead(1 + random.nextInt(64));
            if (!built && 0 == copied)
            {
                Thread.onSpinWait();
            }
        }
    }

    /** Reads every sequence in order like a dispatcher; sometimes stalls and gets lapped. */
    private void follow()
    {
        final Random random = new Random(seed + 1);
        final EventRecord record = new EventRecord();
        long next = 0;
        while (null == failure.get())
        {
            final int result = window.read(next, record);
            if (WatchWindow.READ_OK == result)
            {
                assertIsEvent(record, next, "follower; " + context);
                followerReads.incrementAndGet();
                next++;
                if (random.nextInt(2_000) == 0)
                {
                    LockSupport.parkNanos(20_000);
                }
            }
            else if (WatchWindow.READ_NOT_PUBLISHED == result)
            {
                if (writerDone.get() && next > window.publishedSequence())
                {
                    return;
                }
                Thread.yield();
            }
            else
            {
                final long oldest = window.oldestSequence();
                assertTrue(oldest > next, "lapped at " + next + " but oldest is " + oldest + "; " + context);
                next = oldest;
            }
        }
    }

    /** Reads random sequences up to twice the capacity behind, and looks revisions up. */
    private void sample()
    {
        final Random random = new Random(seed + 2);
        final EventRecord record = new EventRecord();
        // Runs on past the writer until it has read once: a late-scheduled sampler must still check something.
        while (null == failure.get() && (!writerDone.get() || randomReads.get() == 0))
        {
            final long published = window.publishedSequence();
            if (published < 0)
            {
                Thread.yield();
                continue;
            }
            final int span = 2 * window.capacity() + 1;
            final long sequence = Math.max(0, published - random.nextInt(span));
            final int result = window.read(sequence, record);
            if (WatchWindow.READ_OK == result)
            {
                assertIsEvent(record, sequence, "sampler; " + context);
                randomReads.incrementAndGet();
            }
            else
            {
                assertEquals(WatchWindow.READ_LAPPED, result, "sequence " + sequence + " was published; " + context);
                assertTrue(window.oldestSequence() > sequence, "lapped but still held: " + sequence + "; " + context);
            }

            final long revision = DerivedEvents.revision(Math.max(0, published - random.nextInt(span)));
            final long first = window.firstSequenceAtOrAfter(revision);
            if (WatchWindow.REVISION_EVICTED == first)
            {
                assertGoesAway(DerivedEvents.firstSequenceOf(revision), record);
            }
            else
            {
                assertEquals(DerivedEvents.firstSequenceOf(revision), first, "revision " + revision + "; " + context);
            }
        }
    }

    /**
     * An eviction is announced just before the bytes are overwritten, within the same append, so
     * a reader may still read the event once or twice; it must then become unreadable.
     */
    private void assertGoesAway(final long sequence, final EventRecord record)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAFETY_NET_SECONDS);
        int result;
        while (WatchWindow.READ_OK == (result = window.read(sequence, record)))
        {
            assertIsEvent(record, sequence, "sampler, announced evicted; " + context);
            assertTrue(System.nanoTime() < deadline, "announced evicted but still held: " + sequence + "; " + context);
            Thread.yield();
        }
        assertEquals(WatchWindow.READ_LAPPED, result, "sequence " + sequence + "; " + context);
    }
}
