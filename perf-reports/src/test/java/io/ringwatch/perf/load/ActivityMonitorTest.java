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
        final long origin = System.nanoTime();
        monitor.placeFrom(origin);
        System.gc();
        final double gcReturnedAt = (System.nanoTime() - origin) / 1e9;
        // Notifications arrive on a JMX thread; wait for the one System.gc() causes.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (monitor.collectionsSeen() == 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        final RunActivity activity = monitor.stop();

        assertFalse(activity.collectors().isEmpty(), "the JVM names its collectors");
        assertFalse(activity.collections().isEmpty(), "System.gc() is reported");
        // The collection started after the origin (its arrival less its duration cannot be earlier than
        // its start; 10 ms for the duration's rounding) and before System.gc() returned (the wait's
        // 10 s bound the notification's delay).
        final double at = activity.collections().get(0).atSeconds();
        assertTrue(at >= -0.01 && at <= gcReturnedAt + 10, "placed against the origin: " + activity.collections() +
            ", System.gc() returned at " + gcReturnedAt + " s");
        assertTrue(activity.cpuSeconds() >= 0, "process CPU time: " + activity.cpuSeconds());
        assertTrue(activity.wallSeconds() > 0);
        assertTrue(activity.processors() >= 1);
    }
}
