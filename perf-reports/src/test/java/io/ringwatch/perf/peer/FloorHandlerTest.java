package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.LatencyRecorder;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FloorHandlerTest
{
    @Test
    void eachEventIsAcknowledgedOnceAndReachesEachWatcherOfItsKeyOnce()
    {
        final LatencyRecorder acks = new LatencyRecorder();
        final LatencyRecorder a = new LatencyRecorder();
        final LatencyRecorder b = new LatencyRecorder();
        final LatencyRecorder c = new LatencyRecorder();
        final FloorHandler handler = new FloorHandler(new LatencyRecorder[][] {{a, b}, {c}, {}});

        final int[] keys = {0, 1, 0, 2, 0, 1};
        for (int i = 0; i < keys.length; i++)
        {
            handler.onEvent(event(keys[i], System.nanoTime(), acks), i, i == keys.length - 1);
        }

        assertEquals(6, acks.count());
        assertEquals(3, a.count());
        assertEquals(3, b.count());
        assertEquals(2, c.count());
    }

    @Test
    void theLatencyRunsFromTheIntendedTime()
    {
        final LatencyRecorder acks = new LatencyRecorder();
        final LatencyRecorder watcher = new LatencyRecorder();
        acks.measureFrom(0);
        watcher.measureFrom(0);
        final FloorHandler handler = new FloorHandler(new LatencyRecorder[][] {{watcher}});

        handler.onEvent(event(0, System.nanoTime() - TimeUnit.SECONDS.toNanos(1), acks), 0, true);

        assertTrue(acks.drain().getMinValue() >= TimeUnit.SECONDS.toNanos(1) * 999 / 1000);
        assertTrue(watcher.drain().getMinValue() >= TimeUnit.SECONDS.toNanos(1) * 999 / 1000);
    }

    @Test
    void handlingAnEventAllocatesNothing()
    {
        final LatencyRecorder acks = new LatencyRecorder();
        final LatencyRecorder watcher = new LatencyRecorder();
        acks.measureFrom(0);
        watcher.measureFrom(0);
        final FloorHandler handler = new FloorHandler(new LatencyRecorder[][] {{watcher, watcher}});
        final FloorEvent event = event(0, 0, acks);
        // The first events allocate this thread's recorder shares; a 10 s latency sizes the
        // histograms for anything a pause in this test could record.
        event.intendedNanos = System.nanoTime() - TimeUnit.SECONDS.toNanos(10);
        handler.onEvent(event, 0, true);
        for (int i = 1; i <= 10_000; i++)
        {
            event.intendedNanos = System.nanoTime();
            handler.onEvent(event, i, true);
        }

        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++)
        {
            event.intendedNanos = System.nanoTime();
            handler.onEvent(event, i, true);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        // Far less than one byte an event: the reading itself may cost a few bytes.
        assertTrue(allocated < 1_000, allocated + " bytes for 100,000 events");
        assertEquals(110_001, acks.count());
        assertEquals(2 * 110_001, watcher.count());
    }

    private static FloorEvent event(final int keyIndex, final long intendedNanos, final LatencyRecorder acks)
    {
        final FloorEvent event = new FloorEvent();
        event.keyIndex = keyIndex;
        event.intendedNanos = intendedNanos;
        event.acks = acks;
        return event;
    }
}
