package io.ringwatch.perf.load;

import io.ringwatch.perf.report.RunActivity;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActivityMonitorTest
{
    @Test
    void reportsTheCollectorsTheCollectionsDuringTheRunAndTheProcessCpuTime() throws InterruptedException
    {
        final ActivityMonitor monitor = new ActivityMonitor().start();
        monitor.placeFrom(System.nanoTime());
        System.gc();
        // Notifications arrive on a JMX thread; wait for the one System.gc() causes.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (monitor.collectionsSeen() == 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        final RunActivity activity = monitor.stop();

        assertFalse(activity.collectors().isEmpty(), "the JVM names its collectors");
        assertFalse(activity.collections().isEmpty(), "System.gc() is reported");
        assertTrue(activity.collections().get(0).atSeconds() > -1 && activity.collections().get(0).atSeconds() < 11,
            "placed against the origin: " + activity.collections());
        assertTrue(activity.cpuSeconds() >= 0, "process CPU time: " + activity.cpuSeconds());
        assertTrue(activity.wallSeconds() > 0);
        assertTrue(activity.processors() >= 1);
    }
}
