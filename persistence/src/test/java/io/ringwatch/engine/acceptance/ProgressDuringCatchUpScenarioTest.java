package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress never ahead of events while the events come from the log (etcd "progress notify ahead
 * of events", client-go bookmarks): a persistent engine whose window (1,024 events, no freshness
 * hold) the writer laps many times over, a prefix watch with prevKv and periodic progress (1 ms)
 * started at revision 1 after the window has long moved on, so it begins by reading the log, and
 * read slower than the writer writes (queues of 8), so it leaves the routes and rejoins again and
 * again. The writes mix single puts, three-key txns (one key outside the prefix), deletes and
 * prefix deletes. Each reader kind must receive exactly the reference's events (values, prevKv,
 * create revision, version) in order, and no progress revision R before every matching event up
 * to R, nor any progress below an event delivered before it (a client-go bookmark would go back).
 */
class ProgressDuringCatchUpScenarioTest
{
    private static final int BEFORE = Scenario.LONG ? 20_000 : 4_000;
    private static final int DURING = Scenario.LONG ? 200_000 : 16_000;
    private static final int KEYS = 64;

    static Stream<Arguments> modesAndKinds()
    {
        final List<Arguments> cases = new ArrayList<>();
        for (final Scenario.Mode mode : new Scenario.Mode[] {Scenario.Mode.ASYNC, Scenario.Mode.SYNC})
        {
            for (final ProgressNeverAheadScenarioTest.Kind kind : ProgressNeverAheadScenarioTest.Kind.values())
            {
                cases.add(Arguments.of(mode, kind));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} engine, {1} watcher")
    @MethodSource("modesAndKinds")
    void progressFromTheLogNeverRunsAheadOfItsEvents(final Scenario.Mode mode, final ProgressNeverAheadScenarioTest.Kind kind,
        @TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.progressCatchUp.seed", System.nanoTime());
        try (RingWatch engine = RingWatch.open(mode.builder(dir).windowCapacity(1 << 10, 1 << 10)
            .windowFreshness(Duration.ofNanos(1)).watcherQueueDepth(8).progressNotifyInterval(Duration.ofMillis(1)).build()))
        {
            final Model model = new Model(new Random(seed));
            final Set<WatcherView.State> statesSeen = EnumSet.noneOf(WatcherView.State.class);
            model.write(engine, BEFORE);
            final ProgressNeverAheadScenarioTest.Audit audit = new ProgressNeverAheadScenarioTest.Audit();
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("/p/")).withPrevKv().withProgressNotify().startRevision(1);
            final Watcher push = kind == ProgressNeverAheadScenarioTest.Kind.PUSH ? engine.watch(request, new Slow(audit)) : null;
            final ProgressNeverAheadScenarioTest.Reader reader = push != null ? null
                : ProgressNeverAheadScenarioTest.Reader.drain(engine.watchPull(request), kind, audit);
            try
            {
                model.sampler = () -> engine.watchers().forEach(w -> statesSeen.add(w.state()));
                model.write(engine, DURING);
                final int owedAll = model.expected.size();
                final long last = model.revision;
                Scenario.await(() -> audit.events() >= owedAll && audit.maxProgress() >= last || audit.cancellation() != null,
                    () -> owedAll + " events and a progress at " + last + " (" + audit + "), seed " + seed);
                assertNull(audit.cancellation(), "the watcher was cancelled, seed " + seed);
                final List<Event> events = audit.copy();
                for (int i = 0; i < Math.min(events.size(), owedAll); i++)
                {
                    assertEquals(model.expected.get(i), Expected.of(events.get(i)),
                        "event " + i + " of " + owedAll + ", seed " + seed);
                }
                assertEquals(owedAll, events.size(), "events delivered, seed " + seed);
                int checked = 0;
                for (final long[] seen : audit.progressSeen())
                {
                    final long revision = seen[0];
                    final int owed = model.owedUpTo(revision);
                    assertTrue(seen[1] >= owed, "progress " + revision + " arrived after only " + seen[1]
                        + " events, but " + owed + " events have a revision <= " + revision + ", seed " + seed);
                    checked++;
                }
                assertTrue(checked > 0, "no progress notification was checked");
                assertEquals(List.of(), audit.behind(), "progress behind an event delivered before it, seed " + seed);
                assertTrue(statesSeen.contains(WatcherView.State.CATCHING_UP), "the watcher never read by its cursor: " + statesSeen);
            }
            finally
            {
                if (reader != null)
                {
                    reader.close();
                }
                if (push != null)
                {
                    push.cancel();
                }
            }
        }
    }

    /** A push listener slower than the writer: parks a little on every fourth batch. */
    private static final class Slow implements WatchListener
    {
        private final ProgressNeverAheadScenarioTest.Audit audit;
        private int batches;

        Slow(final ProgressNeverAheadScenarioTest.Audit audit)
        {
            this.audit = audit;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            audit.onEvents(events);
            if ((++batches & 3) == 0)
            {
                LockSupport.parkNanos(200_000);
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            audit.onProgress(revision);
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            audit.onCancelled(cancellation);
        }
    }

    /** What a watcher of /p/ with prevKv must see of one change. */
    record Expected(long revision, EventType type, String key, String value, long create, long mod, long version,
        String prevValue, long prevMod)
    {
        static Expected of(final Event e)
        {
            final KeyValue kv = e.kv();
            final KeyValue prev = e.prevKv();
            return new Expected(e.revision(), e.type(), kv.keyAsString(), e.type() == EventType.PUT ? kv.valueAsString() : null,
                kv.createRevision(), kv.modRevision(), kv.version(), prev == null ? null : prev.valueAsString(),
                prev == null ? 0 : prev.modRevision());
        }
    }

    /** The writer's reference: keys, their create revision and version, and the events of /p/ in order. */
    private static final class Model
    {
        private final Random random;
        private final Map<String, long[]> live = new TreeMap<>();
        private final Map<String, String> values = new TreeMap<>();
        private final List<Expected> expected = new ArrayList<>();
        private long revision;
        private Runnable sampler = () -> { };

        Model(final Random random)
        {
            this.random = random;
        }

        /** Writes {@code count} revisions, pipelined 64 at a time, and checks each one's revision. */
        void write(final RingWatch engine, final int count)
        {
            final List<CompletableFuture<?>> inFlight = new ArrayList<>();
            final List<Long> revisions = new ArrayList<>();
            for (int i = 0; i < count; i++)
            {
                final int choice = random.nextInt(100);
                final String a = "/p/" + random.nextInt(KEYS);
                if (choice < 40)
                {
                    inFlight.add(engine.writeAsync(Op.put(a, "v" + (revision + 1))));
                    put(a);
                }
                else if (choice < 70)
                {
                    String b = "/p/" + random.nextInt(KEYS);
                    while (b.equals(a))
                    {
                        b = "/p/" + random.nextInt(KEYS);
                    }
                    final String v = "t" + (revision + 1);
                    inFlight.add(engine.txnAsync(Txn.of(List.of(), List.of(Op.put(a, v), Op.put("/q/x", v), Op.put(b, v)), List.of())));
                    // The events of one txn come in the order of its ops.
                    putAll(new String[] {a, b}, v);
                }
                else if (choice < 97 && live.containsKey(a))
                {
                    inFlight.add(engine.writeAsync(Op.delete(a)));
                    revision++;
                    delete(a);
                }
                else if (choice >= 97 && live.keySet().stream().anyMatch(k -> k.startsWith("/p/1")))
                {
                    inFlight.add(engine.writeAsync(Op.delete(KeyRange.prefix("/p/1"))));
                    revision++;
                    for (final String k : new ArrayList<>(live.keySet()))
                    {
                        if (k.startsWith("/p/1"))
                        {
                            delete(k);
                        }
                    }
                }
                else
                {
                    inFlight.add(engine.writeAsync(Op.put(a, "v" + (revision + 1))));
                    put(a);
                }
                revisions.add(revision);
                if (inFlight.size() == 64)
                {
                    sampler.run();
                    drain(inFlight, revisions);
                }
            }
            drain(inFlight, revisions);
        }

        private static void drain(final List<CompletableFuture<?>> inFlight, final List<Long> revisions)
        {
            for (int i = 0; i < inFlight.size(); i++)
            {
                final Object result = inFlight.get(i).join();
                final long got = result instanceof WriteResult w ? w.revision()
                    : ((TxnResult)result).revision();
                assertEquals(revisions.get(i).longValue(), got, "the model's revision for write " + i + " of the batch");
            }
            inFlight.clear();
            revisions.clear();
        }

        private void put(final String key)
        {
            revision++;
            change(key, "v" + revision);
        }

        private void putAll(final String[] keys, final String value)
        {
            revision++;
            for (final String key : keys)
            {
                change(key, value);
            }
        }

        private void change(final String key, final String value)
        {
            final long[] meta = live.get(key);
            final String prev = values.get(key);
            final long prevMod = meta == null ? 0 : meta[1];
            final long create = meta == null ? revision : meta[0];
            final long version = meta == null ? 1 : meta[2] + 1;
            live.put(key, new long[] {create, revision, version});
            values.put(key, value);
            expected.add(new Expected(revision, EventType.PUT, key, value, create, revision, version, prev, prevMod));
        }

        private void delete(final String key)
        {
            final long[] meta = live.remove(key);
            final String prev = values.remove(key);
            expected.add(new Expected(revision, EventType.DELETE, key, null, 0, revision, 0, prev, meta[1]));
        }

        /** @return how many reference events have a revision at or below {@code r}. */
        int owedUpTo(final long r)
        {
            int low = 0;
            int high = expected.size();
            while (low < high)
            {
                final int mid = (low + high) >>> 1;
                if (expected.get(mid).revision() <= r)
                {
                    low = mid + 1;
                }
                else
                {
                    high = mid;
                }
            }
            return low;
        }
    }
}
