package io.ringwatch.perf.load;

import io.ringwatch.perf.report.PeerResult;
import io.ringwatch.perf.report.RunActivity;
import io.ringwatch.perf.report.TimelinePoint;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Drives one peer through one run: preload, start the watchers, send writes at a fixed rate from
 * the producer threads on a {@link SendSchedule}, wait until every acknowledgement and event has
 * arrived (or stopped arriving), and collect the histograms and rates. The calling thread
 * monitors progress, polling counters once a millisecond, and prints a line a second.
 *
 * <p>Called on one thread (the main one); allocates its threads and histograms per run.
 */
public final class LoadRun
{
    private static final long MONITOR_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SETUP_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final Duration MIN_GIVE_UP_LAG = Duration.ofSeconds(5);

    private final Peer peer;
    private final LoadSettings settings;
    private final Workload workload;
    private final PrintStream log;

    /**
     * @param peer     the peer to drive; the run does not close it.
     * @param settings rate, times and producers.
     * @param workload keys and watchers.
     * @param log      where progress lines go.
     */
    public LoadRun(final Peer peer, final LoadSettings settings, final Workload workload, final PrintStream log)
    {
        this.peer = peer;
        this.settings = settings;
        this.workload = workload;
        this.log = log;
    }

    /**
     * Runs the load and returns what was measured.
     *
     * @return the peer's result.
     * @throws InterruptedException if interrupted.
     */
    public PeerResult execute() throws InterruptedException
    {
        log.printf("%s: preloading %d keys%n", peer.name(), workload.keyCount());
        peer.preload(workload);
        final LatencyRecorder deliveries = new LatencyRecorder();
        final LatencyRecorder acks = new LatencyRecorder();
        final LatencyRecorder sendLag = new LatencyRecorder();
        final CancellationTally cancellations = new CancellationTally();
        log.printf("%s: starting %d watchers (%d pull)%n", peer.name(), workload.watchers(), workload.pullWatchers());
        for (int w = 0; w < workload.watchers(); w++)
        {
            peer.watch(workload.watcherPrefix(w), workload.isPull(w), deliveries, cancellations);
        }
        peer.ready();
        // What setup built is promoted before the clock starts, not copied by a young collection
        // inside the measured phase (HeapSettle says why).
        HeapSettle.settle();

        final long warmupNanos = settings.warmup().toNanos();
        final long durationNanos = settings.duration().toNanos();
        final SendSchedule schedule = new SendSchedule(System.nanoTime() + SETUP_SLACK_NANOS, settings.rate());
        final long measureFrom = schedule.startNanos() + warmupNanos;
        // Saturating, the number of writes is what the peer takes in the time, known only at the end.
        final long totalWrites = settings.saturate() ? Long.MAX_VALUE : schedule.writesBefore(warmupNanos + durationNanos);
        final long measuredWrites = settings.saturate() ? 0 : totalWrites - schedule.writesBefore(warmupNanos);
        deliveries.measureFrom(measureFrom);
        acks.measureFrom(measureFrom);
        sendLag.measureFrom(measureFrom);
        if (settings.saturate())
        {
            log.printf("%s: writes as fast as the peer takes them (%d s warm-up, %d s measured), %d producers%n", peer.name(),
                settings.warmup().toSeconds(), settings.duration().toSeconds(), settings.producers());
        }
        else
        {
            log.printf("%s: %d writes at %d/s (%d s warm-up, %d s measured), %d producers%n", peer.name(), totalWrites,
                settings.rate(), settings.warmup().toSeconds(), settings.duration().toSeconds(), settings.producers());
        }

        final ActivityMonitor activity = new ActivityMonitor().start();
        activity.placeFrom(measureFrom);
        final AtomicLong lastSendNanos = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        // A producer gives up once it lags its schedule by the run's length, but never by less than
        // MIN_GIVE_UP_LAG: a short run would otherwise give up at one scheduling stall of a loaded machine.
        final long giveUpLagNanos = Math.max(warmupNanos + durationNanos, MIN_GIVE_UP_LAG.toNanos());
        final Sent sent = new Sent(measureFrom, giveUpLagNanos);
        final List<Thread> producers = startProducers(schedule, totalWrites, acks, sendLag, lastSendNanos, failure, sent);
        final List<TimelinePoint> timeline = new ArrayList<>();
        final Completion completion = monitor(producers, totalWrites, sent, acks, deliveries, failure, measureFrom, timeline);
        final RunActivity jvm = activity.stop();
        if (failure.get() != null)
        {
            throw new IllegalStateException(peer.name() + ": a producer failed", failure.get());
        }
        final long sentWrites = sent.all.sum();
        final long sentMeasured = sent.measured.sum();
        final long expectedDeliveries = sentWrites * workload.watchersPerWrite();

        final long writesAcked = acks.count();
        final long delivered = deliveries.count();
        final List<String> notes = new ArrayList<>();
        if (!settings.saturate() && sentWrites < totalWrites)
        {
            notes.add(String.format("gave up: the producers fell more than %d s behind schedule and stopped after %d of %d " +
                "planned writes (%d of %d measured); the peer could not sustain the rate", giveUpLagNanos / 1_000_000_000L,
                sentWrites, totalWrites, sentMeasured, measuredWrites));
        }
        if (!completion.drained)
        {
            notes.add(String.format("not drained after %d s: %d of %d writes acknowledged, %d of %d events delivered",
                settings.drainTimeout().toSeconds(), writesAcked, sentWrites, delivered, expectedDeliveries));
        }
        final TimelinePoint last = deliveries.sample((System.nanoTime() - measureFrom) / 1e9);
        if (last != null)
        {
            timeline.add(last);
        }
        final Histogram deliveryLatency = deliveries.drain().copy();
        final Histogram ackLatency = acks.drain().copy();
        // Rates count what actually completed in the measured phase, so a peer that lost events
        // or acknowledgements is not credited with them.
        final PeerResult result = new PeerResult(
            peer.name(), peer.description(), settings.saturate() ? 0 : settings.rate(), sentWrites,
            settings.saturate() ? sentMeasured : measuredWrites, workload.watchers(),
            workload.watchersPerWrite(), expectedDeliveries, delivered,
            deliveryLatency, ackLatency, sendLag.drain().copy(),
            perSecond(sentMeasured, lastSendNanos.get() - measureFrom),
            perSecond(ackLatency.getTotalCount(), completion.acksDoneNanos - measureFrom),
            perSecond(deliveryLatency.getTotalCount(), completion.deliveriesDoneNanos - measureFrom),
            completion.drained, peer.failedWrites(), cancellations.snapshot(), notes, List.copyOf(timeline), jvm);
        log.printf("%s: done: acked %.0f writes/s, delivered %.0f events/s, %s%n", peer.name(), result.ackRate(),
            result.deliveryRate(), completion.drained ? "drained" : "NOT drained");
        return result;
    }

    private List<Thread> startProducers(
        final SendSchedule schedule, final long totalWrites, final LatencyRecorder acks, final LatencyRecorder sendLag,
        final AtomicLong lastSendNanos, final AtomicReference<Throwable> failure, final Sent sent)
    {
        final int producerCount = settings.producers();
        final List<Thread> producers = new ArrayList<>(producerCount);
        for (int p = 0; p < producerCount; p++)
        {
            final int first = p;
            final Thread producer = new Thread(() ->
            {
                try
                {
                    produce(first, producerCount, schedule, totalWrites, acks, sendLag, lastSendNanos, sent);
                }
                catch (final Throwable t)
                {
                    failure.compareAndSet(null, t);
                }
            }, "perf-producer-" + p);
            producer.setDaemon(true);
            producers.add(producer);
            producer.start();
        }
        return producers;
    }

    private void produce(
        final int first, final int stride, final SendSchedule schedule, final long totalWrites,
        final LatencyRecorder acks, final LatencyRecorder sendLag, final AtomicLong lastSendNanos, final Sent sent)
        throws InterruptedException
    {
        final PeerWriter writer = peer.newWriter(workload, acks);
        if (settings.saturate())
        {
            saturate(writer, first, stride, schedule.startNanos() + settings.warmup().toNanos() + settings.duration().toNanos(),
                lastSendNanos, sent);
            return;
        }
        final ThreadLatency lag = sendLag.forCurrentThread();
        final ProducerWait wait = settings.producerWait();
        final int keyCount = workload.keyCount();
        long now = 0;
        for (long i = first; i < totalWrites; i += stride)
        {
            final long intended = schedule.intendedNanos(i);
            while ((now = System.nanoTime()) < intended)
            {
                wait.idle(intended - now);
            }
            if (now - intended > sent.giveUpLagNanos)
            {
                break;
            }
            lag.record(intended, now);
            writer.write((int)(i % keyCount), intended);
            sent.count(intended);
        }
        final long sentAt = now;
        lastSendNanos.accumulateAndGet(sentAt, Math::max);
    }

    /** A closed loop: each write goes as soon as the writer returns, stamped with its actual send time. */
    private void saturate(
        final PeerWriter writer, final int first, final int stride, final long endNanos, final AtomicLong lastSendNanos,
        final Sent sent) throws InterruptedException
    {
        final int keyCount = workload.keyCount();
        long now = System.nanoTime();
        for (long i = first; now < endNanos; i += stride)
        {
            writer.write((int)(i % keyCount), now);
            sent.count(now);
            now = System.nanoTime();
        }
        lastSendNanos.accumulateAndGet(now, Math::max);
    }

    private Completion monitor(
        final List<Thread> producers, final long plannedWrites, final Sent sent,
        final LatencyRecorder acks, final LatencyRecorder deliveries, final AtomicReference<Throwable> failure,
        final long measureFrom, final List<TimelinePoint> timeline)
        throws InterruptedException
    {
        final long drainTimeoutNanos = settings.drainTimeout().toNanos();
        long acksDone = 0;
        long deliveriesDone = 0;
        long lastProgress = System.nanoTime();
        long lastSeen = -1;
        long nextLog = lastProgress + TimeUnit.SECONDS.toNanos(1);
        while (true)
        {
            final boolean producing = anyAlive(producers);
            // Until the producers stop, the plan; after, what they actually sent (they may give up).
            // Saturating, there is no plan: the writes sent so far.
            final long totalWrites = producing && !settings.saturate() ? plannedWrites : sent.all.sum();
            final long expectedDeliveries = totalWrites * workload.watchersPerWrite();
            final long now = System.nanoTime();
            final long acked = acks.count();
            final long delivered = deliveries.count();
            if (acksDone == 0 && acked >= totalWrites && !(producing && settings.saturate()))
            {
                acksDone = now;
            }
            if (deliveriesDone == 0 && delivered >= expectedDeliveries && !(producing && settings.saturate()))
            {
                deliveriesDone = now;
            }
            if (acked + delivered != lastSeen)
            {
                lastSeen = acked + delivered;
                lastProgress = now;
            }
            if (acksDone != 0 && deliveriesDone != 0 && !producing)
            {
                return new Completion(true, acksDone, deliveriesDone);
            }
            if (failure.get() != null || (!producing && now - lastProgress > drainTimeoutNanos))
            {
                return new Completion(false, acksDone == 0 ? lastProgress : acksDone,
                    deliveriesDone == 0 ? lastProgress : deliveriesDone);
            }
            if (now >= nextLog)
            {
                // Once a second: the interval's write-to-listener percentiles (measured phase only).
                final TimelinePoint point = now > measureFrom ? deliveries.sample((now - measureFrom) / 1e9) : null;
                if (point != null)
                {
                    timeline.add(point);
                }
                log.printf("%s:   acked %d/%d, delivered %d/%d%n", peer.name(), acked, totalWrites, delivered, expectedDeliveries);
                nextLog += TimeUnit.SECONDS.toNanos(1);
            }
            TimeUnit.NANOSECONDS.sleep(MONITOR_PERIOD_NANOS);
        }
    }

    private static boolean anyAlive(final List<Thread> threads)
    {
        for (final Thread thread : threads)
        {
            if (thread.isAlive())
            {
                return true;
            }
        }
        return false;
    }

    private static double perSecond(final long count, final long nanos)
    {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    /** Writes the producers sent, all and measured; and how far behind schedule they give up. */
    private static final class Sent
    {
        private final LongAdder all = new LongAdder();
        private final LongAdder measured = new LongAdder();
        private final long measureFromNanos;
        private final long giveUpLagNanos;

        Sent(final long measureFromNanos, final long giveUpLagNanos)
        {
            this.measureFromNanos = measureFromNanos;
            this.giveUpLagNanos = giveUpLagNanos;
        }

        void count(final long intendedNanos)
        {
            all.increment();
            if (intendedNanos >= measureFromNanos)
            {
                measured.increment();
            }
        }
    }

    /** When the last acknowledgement and the last event arrived, and whether all did. */
    private record Completion(boolean drained, long acksDoneNanos, long deliveriesDoneNanos)
    {
    }
}
