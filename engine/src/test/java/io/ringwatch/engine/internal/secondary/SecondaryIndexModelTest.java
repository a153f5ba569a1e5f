package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-based, seeded checks of secondary indexes against {@link IndexModel}: the index equals a
 * brute-force scan of the primary state, byIndex is consistent at the revision it reports even
 * while a writer runs, watch-by-index streams equal the model's (delete-like events and adds
 * included), and an index added while writes continue ends up exact. Rerun a failure with
 * {@code -Dringwatch.seed=<seed>}.
 */
class SecondaryIndexModelTest
{
    private static final int STEPS = 400;

    private RingWatch engine;

    @AfterEach
    void close()
    {
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void indexesEqualABruteForceScanAtEveryCheckedRevision()
    {
        final long seed = seed();
        engine = RingWatch.open();
        engine.addIndex("namespace", PodValues.NAMESPACE);
        engine.addIndex("label", PodValues.LABEL);
        final IndexModel model = new IndexModel(seed);
        for (int step = 0; step < STEPS; step++)
        {
            model.step(engine);
            if (step % 20 == 0)
            {
                assertIndexesMatch(model, seed);
            }
        }
        assertIndexesMatch(model, seed);
    }

    @Test
    void byIndexIsConsistentAtItsRevisionWhileTheWriterRuns() throws Exception
    {
        final long seed = seed();
        engine = RingWatch.open(windowOf(8192));
        engine.addIndex("label", PodValues.LABEL);
        final IndexModel model = new IndexModel(seed);
        final List<Map.Entry<String, RangeResult>> reads = readWhileWriting(model, "label", PodValues.LABELS, STEPS);
        assertConsistent(model, reads, PodValues::labelsOf, seed);
    }

    @Test
    void watchByIndexStreamsEqualTheModelsLiveAndReplayed()
    {
        final long seed = seed();
        engine = RingWatch.open(windowOf(8192));
        engine.addIndex("namespace", PodValues.NAMESPACE);
        engine.addIndex("label", PodValues.LABEL);
        final Map<String, CollectingListener> live = new LinkedHashMap<>();
        final List<Watcher> watchers = new ArrayList<>();
        for (final String namespace : List.of("a", "b"))
        {
            live.put("namespace=" + namespace, watch(watchers, WatchRequest.byIndex("namespace", namespace).withPrevKv()));
        }
        for (final String label : PodValues.LABELS)
        {
            live.put("label=" + label, watch(watchers, WatchRequest.byIndex("label", label).withPrevKv()));
        }
        final IndexModel model = new IndexModel(seed);
        for (int step = 0; step < STEPS; step++)
        {
            model.step(engine);
        }
        final Map<String, CollectingListener> replayed = new LinkedHashMap<>();
        for (final String name : live.keySet())
        {
            final String[] parts = name.split("=");
            replayed.put(name, watch(watchers, WatchRequest.byIndex(parts[0], parts[1]).withPrevKv().startRevision(1)));
        }
        for (final String name : live.keySet())
        {
            final String[] parts = name.split("=");
            final List<Event> expected = model.indexStream(IndexModel.functions().get(parts[0]), parts[1], 1);
            assertEquals(expected, live.get(name).awaitEvents(expected.size()), "live " + name + ", seed " + seed);
            assertEquals(expected, replayed.get(name).awaitEvents(expected.size()), "replayed " + name + ", seed " + seed);
        }
        watchers.forEach(Watcher::cancel);
    }

    @Test
    void anIndexAddedWhileWritesContinueIsExactAndConsistent() throws Exception
    {
        final long seed = seed();
        engine = RingWatch.open(windowOf(8192));
        final IndexModel model = new IndexModel(seed);
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread writer = new Thread(() ->
        {
            try
            {
                while (!stop.get())
                {
                    model.step(engine);
                }
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }, "test-writer");
        for (int step = 0; step < 100; step++)
        {
            model.step(engine);
        }
        final long beforeWriter = engine.currentRevision();
        writer.start();
        // The index is added while the writer is at work, not before its thread has started (a
        // fast machine builds it over these 100 steps' keys in less time than a thread start).
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (engine.currentRevision() == beforeWriter && failure.get() == null)
        {
            assertTrue(System.nanoTime() < deadline, "the writer wrote nothing, seed " + seed);
            Thread.onSpinWait();
        }
        engine.addIndex("namespace", PodValues.NAMESPACE);
        final List<Map.Entry<String, RangeResult>> reads = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            final String namespace = PodValues.NAMESPACES[1 + i % 3];
            reads.add(Map.entry(namespace, engine.byIndex("namespace", namespace)));
        }
        stop.set(true);
        writer.join();
        assertEquals(null, failure.get(), "writer failed, seed " + seed);
        assertConsistent(model, reads, PodValues::namespacesOf, seed);
        assertIndexesMatch(model, seed, "namespace");
    }

    private List<Map.Entry<String, RangeResult>> readWhileWriting(
        final IndexModel model, final String index, final String[] values, final int steps) throws InterruptedException
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread writer = new Thread(() ->
        {
            try
            {
                for (int step = 0; step < steps; step++)
                {
                    model.step(engine);
                }
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }, "test-writer");
        writer.start();
        final List<Map.Entry<String, RangeResult>> reads = new ArrayList<>();
        int i = 0;
        while (writer.isAlive() && reads.size() < 2000)
        {
            final String value = values[i++ % values.length];
            reads.add(Map.entry(value, engine.byIndex(index, value)));
        }
        writer.join();
        assertEquals(null, failure.get(), "writer failed");
        return reads;
    }

    private static void assertConsistent(
        final IndexModel model, final List<Map.Entry<String, RangeResult>> reads,
        final Function<String, List<String>> function, final long seed)
    {
        final List<Map.Entry<String, RangeResult>> byRevision = new ArrayList<>(reads);
        byRevision.sort(Comparator.comparingLong(e -> e.getValue().revision()));
        final IndexModel.Replay replay = new IndexModel.Replay(model.history());
        for (final Map.Entry<String, RangeResult> read : byRevision)
        {
            final long revision = read.getValue().revision();
            assertTrue(revision <= model.revision(), "read from the future at " + revision + ", seed " + seed);
            assertEquals(strings(replay.byIndexAt(revision, function, read.getKey())), strings(read.getValue().kvs()),
                "byIndex(" + read.getKey() + ") at revision " + revision + ", seed " + seed);
        }
    }

    private void assertIndexesMatch(final IndexModel model, final long seed, final String... only)
    {
        final List<String> names = only.length > 0 ? List.of(only) : List.of("namespace", "label");
        for (final String name : names)
        {
            final Function<String, List<String>> function = IndexModel.functions().get(name);
            final TreeSet<String> values = model.indexValues(function);
            final TreeSet<String> held = new TreeSet<>();
            for (final byte[] value : engine.indexValues(name))
            {
                held.add(new String(value, StandardCharsets.UTF_8));
            }
            assertEquals(values, held, "indexValues(" + name + ") at revision " + model.revision() + ", seed " + seed);
            for (final String value : List.of("a", "b", "c", "x", "y", "z", "none"))
            {
                final RangeResult result = engine.byIndex(name, value);
                assertEquals(model.revision(), result.revision(), "revision, seed " + seed);
                assertEquals(strings(model.byIndex(function, value)), strings(result.kvs()),
                    "byIndex(" + name + ", " + value + ") at revision " + model.revision() + ", seed " + seed);
            }
        }
    }

    private CollectingListener watch(final List<Watcher> watchers, final WatchRequest request)
    {
        final CollectingListener listener = new CollectingListener();
        watchers.add(engine.watch(request, listener));
        return listener;
    }

    private static List<String> strings(final List<KeyValue> kvs)
    {
        final List<String> out = new ArrayList<>();
        for (final KeyValue kv : kvs)
        {
            out.add(kv.toString());
        }
        return out;
    }

    private static RingWatchConfig windowOf(final int capacity)
    {
        return RingWatchConfig.builder().windowCapacity(capacity, capacity).build();
    }

    private static long seed()
    {
        final String given = System.getProperty("ringwatch.seed");
        final long seed = given != null ? Long.parseLong(given) : System.nanoTime();
        System.out.println("SecondaryIndexModelTest seed=" + seed);
        return seed;
    }
}
