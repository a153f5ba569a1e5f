package io.ringwatch.perf.load;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.ringwatch.perf.report.GcPause;
import io.ringwatch.perf.report.RunActivity;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Watches the JVM during one peer's run, without JFR: the garbage collectors' notifications
 * (each collection's collector, cause, start and duration; placed in time by the notification's
 * arrival less the duration) and the process CPU time at the start and the end. {@link #start} and {@link #stop} on the run's thread; the notifications arrive on a
 * JMX thread and go into a concurrent queue. Allocates per collection, never on the load's path.
 */
public final class ActivityMonitor implements NotificationListener
{
    private final ConcurrentLinkedQueue<GcPause> collections = new ConcurrentLinkedQueue<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private volatile long originNanos;
    private long startNanos;
    private long startCpuNanos;

    /**
     * Starts listening and notes the CPU time.
     *
     * @return this monitor.
     */
    public ActivityMonitor start()
    {
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            if (gc instanceof NotificationEmitter emitter)
            {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
        startNanos = System.nanoTime();
        startCpuNanos = processCpuNanos();
        originNanos = startNanos;
        return this;
    }

    /**
     * Sets the time collections are placed against: the start of the measured phase.
     *
     * @param originNanos the measured phase's start, {@link System#nanoTime()}.
     */
    public void placeFrom(final long originNanos)
    {
        this.originNanos = originNanos;
    }

    /**
     * Stops listening.
     *
     * @return what the JVM did since {@link #start}.
     */
    public RunActivity stop()
    {
        final double wall = (System.nanoTime() - startNanos) / 1e9;
        final long cpu = processCpuNanos();
        for (final NotificationEmitter emitter : emitters)
        {
            try
            {
                emitter.removeNotificationListener(this);
            }
            catch (final ListenerNotFoundException ex)
            {
                // Already gone: nothing more will arrive from it.
            }
        }
        final List<String> names = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName).toList();
        return new RunActivity(names, List.copyOf(collections), cpu < 0 || startCpuNanos < 0 ? -1 : (cpu - startCpuNanos) / 1e9,
            wall, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @return the collections reported so far (tests wait on it: notifications arrive asynchronously).
     */
    int collectionsSeen()
    {
        return collections.size();
    }

    /**
     * Records one collection. Called on a JMX notification thread.
     *
     * @param notification the collector's notification.
     * @param handback     unused.
     */
    @Override
    public void handleNotification(final Notification notification, final Object handback)
    {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType()))
        {
            return;
        }
        final long receivedNanos = System.nanoTime();
        final GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData)notification.getUserData());
        // GcInfo's start time counts from a VM clock that is not RuntimeMXBean's uptime (seconds apart
        // on a loaded machine); the notification is sent as the collection ends, so its arrival less
        // the duration places it on System.nanoTime's line, within the notification's delay.
        final double at = (receivedNanos - originNanos) / 1e9 - info.getGcInfo().getDuration() / 1000.0;
        collections.add(new GcPause(at, info.getGcName(), info.getGcAction(), info.getGcCause(), info.getGcInfo().getDuration()));
    }

    private static long processCpuNanos()
    {
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean bean)
        {
            return bean.getProcessCpuTime();
        }
        return -1;
    }
}
