package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A watch by secondary index that falls behind (a small queue, never drained while the writes
 * run, a window far smaller than the backlog) catches up from the revision log like any other
 * watch, then rejoins the routes: every event it is owed, once, in order, with the old-OR-new
 * value semantics (a key entering the index value is an add, one leaving it a delete). Seeded;
 * the seed is printed.
 */
class IndexWatchCatchUpTest
{
    private static final int WRITES = 600;
    private static final String[] NAMESPACES = {"a", "b", "c"};

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(LogConfig.Durability.class)
    void aWatchByIndexBehindTheWindowCatchesUpFromTheLogWithNoGapAndNoDuplicate(final LogConfig.Durability durability)
        throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("IndexWatchCatchUpTest seed=" + seed);
        final Random random = new Random(seed);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(durability).build())
            .windowCapacity(16, 16)
            .watcherQueueDepth(4)
            .build()))
        {
            engine.addIndex("ns", PodValues.NAMESPACE);
            final PullWatcher watcher = engine.watchPull(WatchRequest.byIndex("ns", "a"));
            final Map<String, String> state = new HashMap<>();
            final List<String> expected = new ArrayList<>();
            for (int i = 0; i < WRITES; i++)
            {
                final String key = "pod-" + random.nextInt(40);
                final String before = state.get(key);
                final boolean oldMatches = before != null && before.startsWith("a|");
                final long revision;
                final String after;
                if (before != null && random.nextInt(5) == 0)
                {
                    revision = engine.delete(key.getBytes(StandardCharsets.UTF_8)).revision();
                    after = null;
                    state.remove(key);
                }
                else
                {
                    after = NAMESPACES[random.nextInt(NAMESPACES.length)] + "|" + i;
                    revision = engine.put(key, after).revision();
                    state.put(key, after);
                }
                final boolean newMatches = after != null && after.startsWith("a|");
                if (oldMatches || newMatches)
                {
                    final EventType type = newMatches ? EventType.PUT : EventType.DELETE;
                    expected.add(type + " " + key + " @" + revision);
                }
            }
            final List<String> seen = new ArrayList<>();
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (seen.size() < expected.size() && System.nanoTime() < deadline)
            {
                final WatchResponse response = watcher.next(Duration.ofMillis(200));
                if (response == null)
                {
                    continue;
                }
                for (final Event event : response.events())
                {
                    seen.add(event.type() + " " + event.kv().keyAsString() + " @" + event.revision());
                }
                assertEquals(null, response.cancellation(), "seed " + seed + ": the watch goes on");
            }
            assertEquals(expected, seen, "seed " + seed);
            assertFalse(watcher.isCancelled());
            engine.put("pod-new", "a|late");
            final List<Event> live = new ArrayList<>();
            final long liveDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (live.isEmpty() && System.nanoTime() < liveDeadline)
            {
                final WatchResponse response = watcher.next(Duration.ofMillis(200));
                if (response != null)
                {
                    live.addAll(response.events());
                }
            }
            assertEquals("pod-new", live.get(0).kv().keyAsString(), "seed " + seed + ": the write after catching up");
        }
    }
}
