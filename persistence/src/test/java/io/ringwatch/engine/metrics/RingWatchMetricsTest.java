package io.ringwatch.engine.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RingWatchMetricsTest
{
    private static final int WRITES = 3_000;

    @TempDir
    Path dir;

    @Test
    void everyMeterIsPublishedTaggedWithTheEngineAndReadableUnderLoad() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch slowCancelled = new CountDownLatch(1);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("orders")
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(500)
            .windowCapacity(16, 1024)
            .listenerBlockedAfter(Duration.ofMillis(1))
            // Long enough that the healthy listener, descheduled on a loaded 2-core machine, is not
            // taken for slow (at 200 ms it once was, and lost its events).
            .slowListenerTimeout(Duration.ofSeconds(2))
            .build()))
        {
            final SimpleMeterRegistry registry = new SimpleMeterRegistry();
            RingWatchMetrics.of(engine).bindTo(registry);

            // A listener that blocks in its first call: the pool replaces its thread, the
            // housekeeper cancels it as a slow listener.
            engine.watch(WatchRequest.of(KeyRange.prefix("/slow/")), new io.ringwatch.engine.watch.WatchListener()
            {
                @Override
                public void onEvents(final io.ringwatch.engine.watch.EventBatch events)
                {
                    awaitQuietly(release);
                }

                @Override
                public void onCancelled(final io.ringwatch.engine.watch.WatchCancellation cancellation)
                {
                    slowCancelled.countDown();
                }
            });
            final PullWatcher neverPolled = engine.watchPull(WatchRequest.of(KeyRange.prefix("/k/")).startRevision(1));
            final AtomicLong delivered = new AtomicLong();
            engine.watch(WatchRequest.of(KeyRange.all()), batch -> delivered.addAndGet(batch.size()));
            final Watcher cancelled = engine.watchPull(WatchRequest.of(KeyRange.all()));
            cancelled.cancel();

            // Readers scrape every meter while writers load the engine.
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicReference<Throwable> readFailure = new AtomicReference<>();
            final AtomicLong scrapes = new AtomicLong();
            final Thread scraper = new Thread(() ->
            {
                try
                {
                    while (writing.get())
                    {
                        for (final Meter meter : registry.getMeters())
                        {
                            for (final var m : meter.measure())
                            {
                                assertTrue(m.getValue() >= 0 && !Double.isNaN(m.getValue()),
                                    meter.getId() + " " + m);
                            }
                        }
                        scrapes.incrementAndGet();
                        // A registry scrapes every few seconds; a busy loop would only starve the engine.
                        TimeUnit.MILLISECONDS.sleep(1);
                    }
                }
                catch (final Throwable t)
                {
                    readFailure.set(t);
                }
            }, "scraper");
            scraper.start();
            engine.put("/slow/a", "1");
            final List<CompletableFuture<WriteResult>> writes = new ArrayList<>();
            for (int i = 0; i < WRITES; i++)
            {
                writes.add(engine.writeAsync(Op.put("/k/" + (i % 200), "v" + i)));
            }
            CompletableFuture.allOf(writes.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
            // Its cancellation reaches the listener only once it returns; the count moves at once.
            awaitTrue(() -> engine.stats().cancelledWatchers(CancelReason.SLOW_LISTENER) == 1, () -> "the blocked listener is cancelled");
            final long last = engine.currentRevision();
            awaitTrue(() -> delivered.get() == last, () -> "the healthy watcher receives every event: " + delivered.get() +
                " of " + last + "; " + engine.watchers() + " " + engine.stats());
            awaitTrue(() -> engine.stats().snapshots().count() > 0, () -> "a snapshot is taken");
            writing.set(false);
            scraper.join();
            release.countDown();
            assertTrue(slowCancelled.await(30, TimeUnit.SECONDS), "the listener hears its cancellation once it returns");
            assertNull(readFailure.get(), () -> "a scrape failed: " + readFailure.get());
            assertTrue(scrapes.get() > 0);

            final Set<String> names = new TreeSet<>();
            for (final Meter meter : registry.getMeters())
            {
                names.add(meter.getId().getName());
                assertEquals("orders", meter.getId().getTag("engine"), meter.getId().toString());
            }
            assertEquals(new TreeSet<>(List.of(
                "ringwatch.revision", "ringwatch.revision.compact", "ringwatch.keys",
                "ringwatch.window.oldest.revision", "ringwatch.window.size", "ringwatch.window.capacity",
                "ringwatch.window.resizes", "ringwatch.watchers", "ringwatch.watchers.lag.max",
                "ringwatch.watchers.cancelled", "ringwatch.pending.entries", "ringwatch.pending.budget",
                "ringwatch.journal.append", "ringwatch.journal.append.max", "ringwatch.journal.flush",
                "ringwatch.journal.flush.max", "ringwatch.snapshot", "ringwatch.snapshot.last",
                "ringwatch.delivery.threads", "ringwatch.delivery.threads.replaced")), names);

            assertEquals(last, gauge(registry, "ringwatch.revision"));
            assertEquals(WRITES + 1, last);
            assertEquals(201, gauge(registry, "ringwatch.keys"));
            final double oldest = gauge(registry, "ringwatch.window.oldest.revision");
            assertTrue(oldest > 1 && oldest <= last, "the window dropped its first revisions: " + oldest);
            assertTrue(gauge(registry, "ringwatch.window.size") <= gauge(registry, "ringwatch.window.capacity"));
            assertTrue(registry.get("ringwatch.window.resizes").tag("direction", "grow").functionCounter().count() >= 1,
                "the window grew from its minimum under load");
            assertEquals(1, cancelledCount(registry, CancelReason.CANCELLED_BY_CLIENT));
            assertEquals(1, cancelledCount(registry, CancelReason.SLOW_LISTENER));
            assertEquals(0, cancelledCount(registry, CancelReason.LAPPED));
            assertTrue(registry.get("ringwatch.delivery.threads.replaced").functionCounter().count() >= 1,
                "a delivery thread was started in place of the blocked one");
            assertTrue(gauge(registry, "ringwatch.delivery.threads") >= 1);
            assertEquals(RingWatchConfig.defaults().pendingBudget(), gauge(registry, "ringwatch.pending.budget"));

            final FunctionTimer appends = registry.get("ringwatch.journal.append").functionTimer();
            assertEquals(last, (long)appends.count(), "one append per revision");
            assertTrue(appends.totalTime(TimeUnit.NANOSECONDS) > 0);
            assertTrue(registry.get("ringwatch.journal.append.max").timeGauge().value(TimeUnit.NANOSECONDS) > 0);
            final FunctionTimer flushes = registry.get("ringwatch.journal.flush").functionTimer();
            assertTrue(flushes.count() >= 1 && flushes.count() <= last, "group commits: " + flushes.count());
            assertTrue(registry.get("ringwatch.snapshot").functionTimer().count() >= 1);

            // The never-polled pull watcher is the laggard the lag gauge names.
            final WatcherView laggard = engine.watchers().stream().filter(v -> v.id() == neverPolled.id()).findFirst().orElseThrow();
            assertEquals(0, laggard.position());
            assertEquals(last, laggard.lag());
            assertEquals(last, gauge(registry, "ringwatch.watchers.lag.max"));
            assertEquals(engine.watcherCount(), (int)(registry.get("ringwatch.watchers").tag("state", "synced").gauge().value()
                + registry.get("ringwatch.watchers").tag("state", "catching_up").gauge().value()
                + registry.get("ringwatch.watchers").tag("state", "rejoining").gauge().value()));
        }
    }

    @Test
    void anInMemoryEngineHasNoJournalOrSnapshotMeters()
    {
        try (RingWatch engine = RingWatch.open())
        {
            final SimpleMeterRegistry registry = new SimpleMeterRegistry();
            RingWatchMetrics.of(engine).bindTo(registry);
            engine.put("a", "1");
            assertTrue(registry.find("ringwatch.journal.append").meters().isEmpty());
            assertTrue(registry.find("ringwatch.snapshot").meters().isEmpty());
            assertEquals(1, gauge(registry, "ringwatch.revision"));
            assertEquals("ringwatch", registry.get("ringwatch.revision").gauge().getId().getTag("engine"));
        }
    }

    private static long gauge(final MeterRegistry registry, final String name)
    {
        final Gauge gauge = registry.find(name).gauge();
        if (gauge != null)
        {
            return (long)gauge.value();
        }
        final TimeGauge timeGauge = registry.get(name).timeGauge();
        return (long)timeGauge.value(TimeUnit.NANOSECONDS);
    }

    private static long cancelledCount(final MeterRegistry registry, final CancelReason reason)
    {
        final FunctionCounter counter = registry.get("ringwatch.watchers.cancelled")
            .tag("reason", reason.name().toLowerCase(java.util.Locale.ROOT)).functionCounter();
        return (long)counter.count();
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition, final java.util.function.Supplier<String> what)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, what);
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
