package io.ringwatch.engine.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.engine.stats.TimingCounter;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes an engine's figures ({@link RingWatch#stats()}) as Micrometer meters, so Prometheus,
 * JMX or any registry Micrometer supports can scrape them:
 * {@code RingWatchMetrics.of(engine).bindTo(registry)}. Micrometer is an optional dependency of
 * the engine: only this package needs it, so an application that never binds the metrics runs
 * without it on the class path.
 *
 * <p>Every meter is tagged {@code engine=<name>} ({@code RingWatchConfig.name()}), plus any tags
 * given here. The meters:
 * <table>
 * <caption>meters</caption>
 * <tr><th>name</th><th>type</th><th>what</th></tr>
 * <tr><td>{@code ringwatch.revision}</td><td>gauge</td><td>the newest applied revision</td></tr>
 * <tr><td>{@code ringwatch.revision.compact}</td><td>gauge</td><td>the compaction point</td></tr>
 * <tr><td>{@code ringwatch.keys}</td><td>gauge</td><td>keys stored</td></tr>
 * <tr><td>{@code ringwatch.window.oldest.revision}</td><td>gauge</td><td>the oldest revision the watch window holds</td></tr>
 * <tr><td>{@code ringwatch.window.size}, {@code ringwatch.window.capacity}</td><td>gauges</td><td>events held, capacity</td></tr>
 * <tr><td>{@code ringwatch.window.resizes}</td><td>counter, {@code direction=grow|shrink}</td><td>capacity changes</td></tr>
 * <tr><td>{@code ringwatch.watchers}</td><td>gauge, {@code state=synced|catching_up|rejoining}</td><td>live watchers by state</td></tr>
 * <tr><td>{@code ringwatch.watchers.lag.max}</td><td>gauge</td><td>the largest lag of a live watcher, in revisions</td></tr>
 * <tr><td>{@code ringwatch.watchers.cancelled}</td><td>counter, {@code reason=lapped|overflowed|slow_listener|compacted|...}</td><td>watchers ended, by reason</td></tr>
 * <tr><td>{@code ringwatch.pending.entries}, {@code ringwatch.pending.budget}</td><td>gauges</td><td>entries queued for watchers, and the most allowed</td></tr>
 * <tr><td>{@code ringwatch.journal.append}, {@code ringwatch.journal.flush}</td><td>function timers (+ {@code .max} time gauges)</td><td>time in the revision log's append (per revision, timed per batch of appends; the max is a batch's) and force (per group commit); persistent engines only</td></tr>
 * <tr><td>{@code ringwatch.snapshot}</td><td>function timer (+ {@code .last} time gauge)</td><td>index snapshot duration; persistent engines only</td></tr>
 * <tr><td>{@code ringwatch.delivery.threads}</td><td>gauge</td><td>delivery threads alive</td></tr>
 * <tr><td>{@code ringwatch.delivery.threads.replaced}</td><td>counter</td><td>delivery threads started in place of ones blocked in listeners</td></tr>
 * </table>
 *
 * <p>Cost: nothing on the engine's hot paths beyond what they keep anyway. Gauges read fields
 * the engine's threads write when the registry polls; the watcher gauges walk the live watchers
 * (O(watchers) per scrape; the lag gauge allocates a view per watcher); the journal timers cost
 * the journal thread two clock reads per append and per flush. Threads: bind from any thread;
 * the meters may be read from any thread, also after the engine closed (they then stay as they
 * were).
 */
public final class RingWatchMetrics implements MeterBinder
{
    private final RingWatch engine;
    private final Tags tags;

    private RingWatchMetrics(final RingWatch engine, final Iterable<Tag> tags)
    {
        this.engine = engine;
        this.tags = Tags.of("engine", engine.name()).and(tags);
    }

    /**
     * @param engine the engine to publish.
     * @return a binder for its meters, tagged with its name.
     * @throws InvalidRequestException if the engine is null.
     */
    public static RingWatchMetrics of(final RingWatch engine)
    {
        return of(engine, Tags.empty());
    }

    /**
     * @param engine the engine to publish.
     * @param tags   tags to add to every meter besides {@code engine}.
     * @return a binder for its meters.
     * @throws InvalidRequestException if an argument is null.
     */
    public static RingWatchMetrics of(final RingWatch engine, final Iterable<Tag> tags)
    {
        if (engine == null || tags == null)
        {
            throw new InvalidRequestException("engine and tags must not be null");
        }
        return new RingWatchMetrics(engine, tags);
    }

    /**
     * Registers every meter of the engine with {@code registry}. Allocates the meters.
     *
     * @param registry the registry.
     */
    @Override
    public void bindTo(final MeterRegistry registry)
    {
        final EngineStats stats = engine.stats();
        gauge(registry, "ringwatch.revision", "the newest applied revision", stats, EngineStats::currentRevision);
        gauge(registry, "ringwatch.revision.compact", "the compaction point", stats, EngineStats::compactRevision);
        gauge(registry, "ringwatch.keys", "keys stored", stats, EngineStats::keys);
        gauge(registry, "ringwatch.window.oldest.revision", "the oldest revision the watch window holds", stats,
            EngineStats::windowOldestRevision);
        gauge(registry, "ringwatch.window.size", "events the watch window holds", stats, EngineStats::windowSize);
        gauge(registry, "ringwatch.window.capacity", "the watch window's capacity in events", stats,
            EngineStats::windowCapacity);
        FunctionCounter.builder("ringwatch.window.resizes", stats, EngineStats::windowGrowCount)
            .description("times the watch window changed capacity").tags(tags).tag("direction", "grow").register(registry);
        FunctionCounter.builder("ringwatch.window.resizes", stats, EngineStats::windowShrinkCount)
            .description("times the watch window changed capacity").tags(tags).tag("direction", "shrink").register(registry);

        for (final WatcherView.State state : WatcherView.State.values())
        {
            if (state != WatcherView.State.CANCELLED)
            {
                Gauge.builder("ringwatch.watchers", stats, s -> s.watchersIn(state))
                    .description("live watchers by state").tags(tags).tag("state", lower(state.name())).register(registry);
            }
        }
        Gauge.builder("ringwatch.watchers.lag.max", stats, EngineStats::maxWatcherLag)
            .description("the largest lag of a live watcher behind the current revision").baseUnit("revisions")
            .tags(tags).register(registry);
        for (final CancelReason reason : CancelReason.values())
        {
            FunctionCounter.builder("ringwatch.watchers.cancelled", stats, s -> s.cancelledWatchers(reason))
                .description("watchers ended, by reason").tags(tags).tag("reason", lower(reason.name())).register(registry);
        }
        gauge(registry, "ringwatch.pending.entries", "entries queued for watchers", stats, EngineStats::pendingEntries);
        gauge(registry, "ringwatch.pending.budget", "the most entries all watcher queues may hold", stats,
            EngineStats::pendingBudget);

        timer(registry, "ringwatch.journal.append", "time appending revisions to the revision log", stats.journalAppends());
        timer(registry, "ringwatch.journal.flush", "time forcing the revision log to disk", stats.journalFlushes());
        final TimingCounter snapshots = stats.snapshots();
        if (snapshots != null)
        {
            FunctionTimer.builder("ringwatch.snapshot", snapshots, TimingCounter::count, TimingCounter::totalNanos,
                TimeUnit.NANOSECONDS).description("index snapshot duration").tags(tags).register(registry);
            TimeGauge.builder("ringwatch.snapshot.last", snapshots, TimeUnit.NANOSECONDS, TimingCounter::lastNanos)
                .description("the latest index snapshot's duration").tags(tags).register(registry);
        }

        gauge(registry, "ringwatch.delivery.threads", "delivery threads alive", stats, EngineStats::deliveryThreads);
        FunctionCounter.builder("ringwatch.delivery.threads.replaced", stats, EngineStats::deliveryThreadsReplaced)
            .description("delivery threads started in place of threads blocked in listeners").tags(tags).register(registry);
    }

    private void gauge(
        final MeterRegistry registry, final String name, final String description, final EngineStats stats,
        final ToDoubleFunction<EngineStats> value)
    {
        Gauge.builder(name, stats, value).description(description).tags(tags).register(registry);
    }

    private void timer(final MeterRegistry registry, final String name, final String description, final TimingCounter timing)
    {
        if (timing == null)
        {
            return;
        }
        FunctionTimer.builder(name, timing, TimingCounter::count, TimingCounter::totalNanos, TimeUnit.NANOSECONDS)
            .description(description).tags(tags).register(registry);
        TimeGauge.builder(name + ".max", timing, TimeUnit.NANOSECONDS, TimingCounter::maxNanos)
            .description(description + ": the longest one since start").tags(tags).register(registry);
    }


    private static String lower(final String name)
    {
        return name.toLowerCase(Locale.ROOT);
    }
}
