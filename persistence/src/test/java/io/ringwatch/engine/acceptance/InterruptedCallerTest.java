package io.ringwatch.engine.acceptance;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller whose thread is interrupted (a cancelled request handler, an executor shut down with
 * {@code shutdownNow}) calls the engine: a read at a past revision that the revision log serves (read
 * on the caller's thread: an interrupted thread touching a {@code FileChannel} closes it, with
 * {@code ClosedByInterruptException}, for everyone sharing it), a sync put, a consistent range and a
 * list-and-watch. Each call must return the exact answer or fail with a typed error, keep the
 * caller's interrupt flag, and harm no one else: later writes and reads on other threads work, reads
 * at past revisions still answer exactly, and a reopen finds every acknowledged write. The reference
 * is the state the test tracks from its own sequential writes. No timing decides anything.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InterruptedCallerTest
{
    private static final int KEYS = 64;
    private static final int WRITES = 3_000;

    @ParameterizedTest
    @EnumSource(Scenario.Mode.class)
    void anInterruptedCallerHarmsNoOneElse(final Scenario.Mode mode, @TempDir final Path dir) throws Exception
    {
        final List<TreeMap<String, String>> states = new ArrayList<>();
        states.add(new TreeMap<>());
        final TreeMap<String, String> state = new TreeMap<>();
        final long[] clock = {1_000_000L};
        try (RingWatch engine = RingWatch.open(config(mode, dir, clock)))
        {
            write(engine, state, states, 0);
            final long past = 5;
            for (int round = 0; round < 3; round++)
            {
                final int r = round;
                final long rangeAt = past + round;
                onInterruptedThread(() -> engine.range(KeyRange.all(), 0, rangeAt), "range at " + rangeAt, result ->
                    assertEquals(states.get((int)rangeAt), asMap((RangeResult)result)));
                onInterruptedThread(() -> engine.put("interrupted" + r, "v"), "put", result -> { });
                onInterruptedThread(() -> engine.range(KeyRange.all(), 0), "range", result -> { });
                onInterruptedThread(() -> engine.listAndWatchPull(WatchRequest.of(KeyRange.all())), "listAndWatch", result ->
                    ((ListWatch<PullWatcher>)result).watcher().cancel());
                // Whatever the interrupted calls did, the engine must go on for everyone else.
                final TreeMap<String, String> now = asMap(engine.range(KeyRange.all(), 0));
                state.clear();
                state.putAll(now);
                while (states.size() <= engine.currentRevision())
                {
                    states.add(new TreeMap<>(now));
                }
                clock[0] += 2_000;
                write(engine, state, states, round + 1);
                if (mode != Scenario.Mode.MEMORY)
                {
                    assertEquals(states.get((int)past), asMap(engine.range(KeyRange.all(), 0, past)), "past read, round " + round);
                }
                assertEquals(state, asMap(engine.range(KeyRange.all(), 0)));
            }
        }
        if (mode != Scenario.Mode.MEMORY)
        {
            try (RingWatch reopened = RingWatch.open(config(mode, dir, clock)))
            {
                assertEquals(state, asMap(reopened.range(KeyRange.all(), 0)), "reopen lost an acknowledged write");
                assertEquals(states.get(5), asMap(reopened.range(KeyRange.all(), 0, 5)));
            }
        }
    }

    /**
     * A 16-event window, so past reads go to the log; in a persistent engine, 1 MiB mapped chunks and
     * a cycle file per test "second" (the test's clock), so a read far back opens files and maps
     * chunks that no writer holds.
     */
    private static RingWatchConfig config(final Scenario.Mode mode, final Path dir, final long[] now)
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder().windowCapacity(16, 16);
        if (mode != Scenario.Mode.MEMORY)
        {
            builder.persistence(LogConfig.builder(dir.resolve("log"))
                .durability(mode == Scenario.Mode.SYNC ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC)
                .rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(() -> now[0]).blockSize(1 << 20).build())
                .snapshotEveryRevisions(0);
        }
        return builder.build();
    }

    private interface Check
    {
        void accept(Object result);
    }

    /** Runs {@code call} on a fresh thread interrupted before the call, and checks what it did there. */
    private static void onInterruptedThread(final Supplier<Object> call, final String what, final Check check) throws Exception
    {
        final AtomicReference<Object> outcome = new AtomicReference<>();
        final AtomicReference<Boolean> flagKept = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            Thread.currentThread().interrupt();
            try
            {
                outcome.set(call.get());
            }
            catch (final Throwable t)
            {
                outcome.set(t);
            }
            flagKept.set(Thread.currentThread().isInterrupted());
        }, "interrupted-caller");
        thread.start();
        thread.join();
        final Object result = outcome.get();
        if (result instanceof Throwable t)
        {
            assertInstanceOf(RingWatchException.class, t, what + ": not a typed error: " + t);
        }
        else
        {
            check.accept(result);
        }
        assertTrue(flagKept.get(), what + ": the caller's interrupt flag was cleared");
    }

    private static void write(final RingWatch engine, final TreeMap<String, String> state,
        final List<TreeMap<String, String>> states, final int round)
    {
        for (int i = 0; i < WRITES; i++)
        {
            final String key = "k" + (i % KEYS);
            final String value = "r" + round + "-" + i + "-" + "x".repeat(1_000);
            final long revision = engine.put(key, value).revision();
            state.put(key, value);
            while (states.size() < revision)
            {
                states.add(new TreeMap<>(states.get(states.size() - 1)));
            }
            assertEquals(revision, states.size());
            states.add(new TreeMap<>(state));
        }
    }

    private static TreeMap<String, String> asMap(final RangeResult result)
    {
        final TreeMap<String, String> map = new TreeMap<>();
        for (final KeyValue kv : result.kvs())
        {
            map.put(kv.keyAsString(), kv.valueAsString());
        }
        return map;
    }
}
