package io.ringwatch.perf.load;

import io.ringwatch.perf.report.TimelinePoint;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyRecorderTest
{
    @Test
    void mergesEveryThreadsRecordings()
    throws InterruptedException
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(0);
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++)
        {
            final long latency = (t + 1) * 1_000L;
            threads.add(new Thread(() ->
            {
                final ThreadLatency mine = recorder.forCurrentThread();
                for (int i = 0; i < 1_000; i++)
                {
                    mine.record(100, 100 + latency);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread thread : threads)
        {
            thread.join();
        }

        final Histogram merged = recorder.drain();

        assertEquals(4_000, merged.getTotalCount());
        assertEquals(4_000, recorder.count());
        assertEquals(1_000, merged.getCountAtValue(1_000));
        assertEquals(1_000, merged.getCountAtValue(4_000));
    }

    @Test
    void countsButDoesNotRecordWarmUp()
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(10_000);
        final ThreadLatency mine = recorder.forCurrentThread();

        mine.record(9_999, 20_000);
        mine.record(10_000, 20_000);

        assertEquals(2, recorder.count());
        final Histogram merged = recorder.drain();
        assertEquals(1, merged.getTotalCount());
        assertEquals(1, merged.getCountAtValue(10_000));
    }

    @Test
    void recordsNothingBeforeTheMeasuredPhaseIsSet()
    {
        final LatencyRecorder recorder = new LatencyRecorder();

        recorder.forCurrentThread().record(5, 10);

        assertEquals(1, recorder.count());
        assertEquals(0, recorder.drain().getTotalCount());
    }

    @Test
    void aSampleHoldsOnlyTheIntervalSinceTheLastOneAndTheTotalKeepsEverything()
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(0);
        final ThreadLatency thread = recorder.forCurrentThread();
        for (int i = 0; i < 100; i++)
        {
            thread.record(1_000, 1_000 + 10_000);
        }

        final TimelinePoint first = recorder.sample(1.0);
        thread.record(1_000, 1_000 + 5_000_000);
        final TimelinePoint second = recorder.sample(2.0);

        assertEquals(100, first.count());
        assertEquals(1.0, first.seconds());
        assertEquals(10_000, first.p99Nanos(), 10);
        assertEquals(1, second.count());
        assertEquals(5_000_000, second.maxNanos(), 5_000);
        assertEquals(null, recorder.sample(3.0), "nothing recorded since");
        assertEquals(101, recorder.drain().getTotalCount());
    }

    @Test
    void samplingEverySecondAllocatesOnlyItsPoint()
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(0);
        final ThreadLatency thread = recorder.forCurrentThread();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 100; i++)
        {
            thread.record(0, 5_000_000);
            recorder.sample(i);
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000; i++)
        {
            thread.record(0, 1_000 + i);
            recorder.sample(i);
        }
        final long perSample = (threads.getCurrentThreadAllocatedBytes() - before) / 1_000;

        // A point is a few dozen bytes; a fresh histogram per sample was kilobytes.
        assertTrue(perSample < 256, perSample + " bytes per sample");
        assertEquals(1_100, recorder.drain().getTotalCount());
    }

    @Test
    void drainKeepsEarlierTotals()
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(0);
        recorder.forCurrentThread().record(0, 7);
        recorder.drain();

        recorder.forCurrentThread().record(0, 9);

        assertEquals(2, recorder.drain().getTotalCount());
    }

    @Test
    void clampsAClockThatRanBackwardsToZero()
    {
        final LatencyRecorder recorder = new LatencyRecorder();
        recorder.measureFrom(0);

        recorder.forCurrentThread().record(100, 90);

        assertEquals(1, recorder.drain().getCountAtValue(0));
    }
}
