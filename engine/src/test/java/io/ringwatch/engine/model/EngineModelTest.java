package io.ringwatch.engine.model;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model-based randomized test: producer threads issue random puts, deletes, range deletes,
 * compare-and-puts and transactions while dozens of push and pull watchers with random ranges,
 * filters and start revisions watch, and a reader takes consistent range reads. Afterwards the
 * writes are replayed in revision order into {@link ReferenceModel}: every write's result, every
 * watcher's stream and every read must equal what the model says, exactly. Every watcher is asked
 * for progress now and then while the writes flow: a progress R must come after every event up to
 * R, and never below an event or a progress delivered before it.
 *
 * <p>Seeded: {@code -Dringwatch.seed=N} repeats a run's choices (thread interleavings still
 * vary); the seed is in every failure message. {@code -Dringwatch.long=true} runs 25 longer rounds,
 * each on a fresh engine with seed N, N+1, ...
 */
class EngineModelTest
{
    private static final boolean LONG = Boolean.getBoolean("ringwatch.long");
    private static final int PRODUCERS = LONG ? 4 : 3;
    private static final int OPS_PER_PRODUCER = LONG ? 8_000 : 1_200;
    private static final int WATCHERS = 40;
    /** The long run repeats rounds on fresh engines: watchers' recorded streams stay within the heap. */
    private static final int ROUNDS = LONG ? 25 : 1;
    private static final int KEYS = 40;
    private static final int MAX_READS = LONG ? 5_000 : 2_000;

    private long seed;

    @Test
    void everyWriteWatcherAndReadMatchesTheSequentialModel() throws Exception
    {
        final RingWatchConfig config = RingWatchConfig.builder()
            .windowCapacity(1024, 1 << 20)
            .watcherQueueDepth(1 << 22)
            .dispatcherThreads(2)
            .deliveryThreads(2)
            .build();
        runRounds("window", () -> RingWatch.open(config));
    }

    /**
     * A window far too small and pending queues far too short for the load, over a journal: watchers
     * fall out of the window, overflow and lag all the time, and must still see exactly the model's
     * history, caught up from the journal and rejoined to the window as often as it takes.
     */
    @Test
    void everyWatcherCatchesUpThroughTheJournalWhenTheWindowCannotKeepUp() throws Exception
    {
        final RingWatchConfig config = RingWatchConfig.builder()
            .windowCapacity(16, 64)
            .windowFreshness(Duration.ofNanos(1))
            .watcherQueueDepth(32)
            .dispatcherThreads(2)
            .deliveryThreads(2)
            .persistence(name -> new InMemoryJournal(1 << 21, false))
            .build();
        runRounds("journal", () -> RingWatch.open(config));
    }

    private void runRounds(final String variant, final Supplier<RingWatch> engines) throws Exception
    {
        final long firstSeed = Long.getLong("ringwatch.seed", System.nanoTime());
        for (int round = 0; round < ROUNDS; round++)
        {
            seed = firstSeed + round;
            System.out.println("EngineModelTest " + variant + " seed=" + seed + " (rerun with -Dringwatch.seed=" + seed + ")");
            runRound(engines);
        }
    }

    private void runRound(final Supplier<RingWatch> engines) throws Exception
    {
        try (RingWatch engine = engines.get())
        {
            final List<Applied> applied = Collections.synchronizedList(new ArrayList<>());
            final List<WatchUnderTest> watchers = new CopyOnWriteArrayList<>();
            final ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicBoolean polling = new AtomicBoolean(true);

            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++)
            {
                final Random random = new Random(seed + p);
                threads.add(new Thread(() -> produce(engine, random, applied), "producer-" + p));
            }
            final Random watchRandom = new Random(seed - 1);
            final Thread watchMaker = new Thread(() -> makeWatchers(engine, watchRandom, watchers, writing), "watch-maker");
            final Random readRandom = new Random(seed - 2);
            final Thread reader = new Thread(() -> readRanges(engine, readRandom, reads, writing), "reader");
            final Thread poller = new Thread(() -> pollPullWatchers(watchers, polling), "poller");
            threads.forEach(Thread::start);
            watchMaker.start();
            reader.start();
            poller.start();
            for (final Thread t : threads)
            {
                t.join();
            }
            writing.set(false);
            watchMaker.join();
            reader.join();

            final long last = engine.currentRevision();
            final ReferenceModel model = replay(applied, last);
            assertEquals(model.range(KeyRange.all()), engine.range(KeyRange.all(), 0).kvs(), why("final state"));
            checkReads(model, reads);
            awaitCompletion(watchers, last);
            polling.set(false);
            poller.join();
            checkWatchers(model, watchers);
        }
    }

    private void produce(final RingWatch engine, final Random random, final List<Applied> applied)
    {
        for (int i = 0; i < OPS_PER_PRODUCER; i++)
        {
            final int dice = random.nextInt(100);
            if (dice < 45)
            {
                final Op op = random.nextBoolean() ? Op.put(key(random), value(random)) : Op.put(key(random), value(random)).withPrevKv();
                applied.add(Applied.write(op, engine.write(op)));
            }
            else if (dice < 60)
            {
                final Op op = Op.delete(key(random)).withPrevKv();
                applied.add(Applied.write(op, engine.write(op)));
            }
            else if (dice < 65)
            {
                final Op op = Op.delete(randomRange(random));
                applied.add(Applied.write(op, engine.write(op)));
            }
            else if (dice < 85)
            {
                final byte[] key = key(random);
                final long expected = random.nextInt(4) == 0 ? 0 :
                    engine.get(key).map(KeyValue::modRevision).orElse(0L) + (random.nextInt(5) == 0 ? 1 : 0);
                final Op op = Op.put(key, value(random));
                applied.add(Applied.cas(op, expected, engine.compareAndPut(key, op.value(), expected)));
            }
            else if (dice < 93)
            {
                final byte[] a = key(random);
                final byte[] b = Keys.utf8("a/" + 2 * random.nextInt(KEYS / 2));
                final long expected = engine.get(a).map(KeyValue::modRevision).orElse(0L);
                final List<Op> then = List.of(Op.put(b, value(random)).withPrevKv(), Op.delete(KeyRange.prefix(Keys.utf8("b/1"))));
                final Txn txn = Txn.of(List.of(Compare.modRevisionIs(a, expected)), then, List.of(Op.put(a, value(random))));
                applied.add(Applied.txn(txn, engine.txn(txn)));
            }
            else
            {
                applied.add(nestedTxn(engine, random));
            }
        }
    }

    /**
     * Two or three levels of transactions: an even key put by the outer branch, an odd one by the
     * nested branches (the same odd key in a nested then and else), a nested delete of a prefix no
     * put of the path touches, a nested condition on the key the outer branch puts (decided on the
     * state before it).
     */
    private Applied nestedTxn(final RingWatch engine, final Random random)
    {
        final byte[] a = key(random);
        final byte[] even = Keys.utf8("a/" + 2 * random.nextInt(KEYS / 2));
        final int k = 2 * random.nextInt(KEYS / 2) + 1;
        // Never under b/3, which the deepest branch deletes beside a put of this key.
        final byte[] odd = Keys.utf8("b/" + (Integer.toString(k).startsWith("3") ? 1 : k));
        final List<Op> deepest = List.of(Op.delete(KeyRange.prefix(Keys.utf8("b/3"))).withPrevKv());
        final List<Op> innerElse = random.nextBoolean() ? List.of(Op.put(odd, value(random)),
            Op.txn(Txn.of(List.of(Compare.modRevisionIs(odd, 0)), deepest, List.of()))) : List.of(Op.put(odd, value(random)));
        // Sometimes also a compare over a range: no key of b/1* changed since revision r.
        final List<Compare> innerWhen = new ArrayList<>(List.of(
            Compare.modRevisionIs(even, engine.get(even).map(KeyValue::modRevision).orElse(0L))));
        if (random.nextBoolean())
        {
            innerWhen.add(Compare.number(Keys.utf8("b/1"), Compare.Target.MOD, Compare.Result.LESS,
                Math.max(0, engine.currentRevision() - random.nextInt(4))).over(KeyRange.prefix(Keys.utf8("b/1"))));
        }
        final Txn inner = Txn.of(innerWhen,
            List.of(Op.put(odd, value(random)).withPrevKv()), innerElse);
        final Txn txn = Txn.of(List.of(Compare.modRevisionIs(a, engine.get(a).map(KeyValue::modRevision).orElse(0L))),
            List.of(Op.put(even, value(random)), Op.txn(inner)), List.of(Op.txn(inner)));
        return Applied.txn(txn, engine.txn(txn));
    }

    private void makeWatchers(final RingWatch engine, final Random random, final List<WatchUnderTest> watchers, final AtomicBoolean writing)
    {
        for (int i = 0; i < WATCHERS && writing.get(); i++)
        {
            final KeyRange range = randomWatchRange(random);
            WatchRequest request = WatchRequest.of(range);
            if (random.nextBoolean())
            {
                request = request.withPrevKv();
            }
            final int filter = random.nextInt(10);
            if (filter == 0)
            {
                request = request.noPut();
            }
            else if (filter == 1)
            {
                request = request.noDelete();
            }
            final long now = engine.currentRevision();
            final int start = random.nextInt(10);
            final boolean pull = random.nextInt(10) < 4;
            final WatchUnderTest w;
            if (start == 0)
            {
                final ListWatch<? extends Watcher> lw = pull ? engine.listAndWatchPull(request) : null;
                final Collector collector = new Collector();
                final ListWatch<? extends Watcher> listWatch = lw != null ? lw : engine.listAndWatch(request, collector);
                w = new WatchUnderTest(request, listWatch.watcher(), collector, listWatch.snapshot().revision() + 1,
                    listWatch.snapshot().revision() + 1, listWatch.snapshot());
            }
            else
            {
                if (start < 4)
                {
                    request = request.startRevision(1 + random.nextInt((int)Math.max(1, now)));
                }
                else if (start < 6)
                {
                    request = request.startRevision(now + 1 + random.nextInt(50));
                }
                final Collector collector = new Collector();
                final long before = engine.currentRevision();
                final Watcher watcher = pull ? engine.watchPull(request) : engine.watch(request, collector);
                final long after = engine.currentRevision();
                final long lo = request.startRevision() == 0 ? before + 1 : request.startRevision();
                final long hi = request.startRevision() == 0 ? after + 1 : request.startRevision();
                w = new WatchUnderTest(request, watcher, collector, lo, hi, null);
            }
            watchers.add(w);
            sleepQuietly(random.nextInt(3));
        }
    }

    private static void readRanges(final RingWatch engine, final Random random, final ConcurrentLinkedQueue<Read> reads, final AtomicBoolean writing)
    {
        int kept = 0;
        while (writing.get() && kept < MAX_READS)
        {
            final KeyRange range = randomRange(random);
            final int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(5) : 0;
            reads.add(new Read(range, limit, engine.range(range, limit)));
            kept++;
            sleepQuietly(random.nextInt(2));
        }
    }

    /** Polls the pull watchers, and every 64th round asks every watcher for progress while events flow. */
    private static void pollPullWatchers(final List<WatchUnderTest> watchers, final AtomicBoolean polling)
    {
        int round = 0;
        while (polling.get())
        {
            final boolean askProgress = (round++ & 63) == 0;
            for (final WatchUnderTest w : watchers)
            {
                if (askProgress)
                {
                    w.watcher.requestProgress();
                }
                if (w.watcher instanceof PullWatcher)
                {
                    ((PullWatcher)w.watcher).poll(w.collector, 1000);
                }
            }
            Thread.onSpinWait();
        }
    }

    private ReferenceModel replay(final List<Applied> applied, final long last)
    {
        final TreeMap<Long, Applied> mutating = new TreeMap<>();
        final TreeMap<Long, List<Applied>> idle = new TreeMap<>();
        for (final Applied a : applied)
        {
            if (a.changed())
            {
                final Applied clash = mutating.put(a.revision, a);
                assertNull(clash, why("two writes got revision " + a.revision));
            }
            else
            {
                idle.computeIfAbsent(a.revision, r -> new ArrayList<>()).add(a);
            }
        }
        assertEquals(last, mutating.size(), why("revisions must be dense: one per changing write"));
        final ReferenceModel model = new ReferenceModel();
        for (long r = 0; r <= last; r++)
        {
            for (final Applied a : idle.getOrDefault(r, List.of()))
            {
                a.checkUnchanged(model, this);
            }
            if (r < last)
            {
                final Applied next = mutating.get(r + 1);
                assertTrue(next != null, why("no write got revision " + (r + 1)));
                next.applyTo(model, this);
                model.commit();
            }
        }
        return model;
    }

    private void checkReads(final ReferenceModel model, final ConcurrentLinkedQueue<Read> reads)
    {
        final List<Read> byRevision = new ArrayList<>(reads);
        byRevision.sort((a, b) -> Long.compare(a.result.revision(), b.result.revision()));
        final TreeMap<byte[], KeyValue> at = new TreeMap<>(java.util.Arrays::compareUnsigned);
        int next = 0;
        final List<Event> history = model.history();
        for (final Read read : byRevision)
        {
            while (next < history.size() && history.get(next).revision() <= read.result.revision())
            {
                final Event event = history.get(next++);
                if (event.type() == EventType.PUT)
                {
                    at.put(event.kv().key(), event.kv());
                }
                else
                {
                    at.remove(event.kv().key());
                }
            }
            final List<KeyValue> expected = new ArrayList<>();
            at.forEach((k, v) ->
            {
                if (read.range.contains(k))
                {
                    expected.add(v);
                }
            });
            final List<KeyValue> cut = read.limit > 0 && expected.size() > read.limit ? expected.subList(0, read.limit) : expected;
            assertEquals(cut, read.result.kvs(), why("range " + read.range + " limit " + read.limit + " at revision " + read.result.revision()));
            assertEquals(read.limit > 0 && expected.size() > read.limit, read.result.more(), why("more flag of " + read.range));
        }
    }

    private void awaitCompletion(final List<WatchUnderTest> watchers, final long last) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        for (final WatchUnderTest w : watchers)
        {
            while (!w.watcher.isCancelled() && w.collector.maxProgress() < last)
            {
                if (System.nanoTime() > deadline)
                {
                    fail(why("watcher " + w.request + " never reported progress to " + last));
                }
                w.watcher.requestProgress();
                Thread.sleep(1);
            }
        }
    }

    private void checkWatchers(final ReferenceModel model, final List<WatchUnderTest> watchers)
    {
        assertTrue(watchers.size() > 0, why("no watcher was made"));
        for (final WatchUnderTest w : watchers)
        {
            assertNull(w.watcher.cancellation(), why(w.request + " was cancelled"));
            final List<Event> seen = w.collector.events();
            if (w.snapshot != null)
            {
                final TreeMap<byte[], KeyValue> at = ReferenceModel.stateAt(model.history(), w.snapshot.revision());
                final List<KeyValue> expected = new ArrayList<>();
                at.forEach((k, v) ->
                {
                    if (w.request.range().contains(k))
                    {
                        expected.add(v);
                    }
                });
                assertEquals(expected, w.snapshot.kvs(), why("snapshot of " + w.request + " at " + w.snapshot.revision()));
            }
            boolean matched = false;
            List<Event> closest = null;
            for (long start = w.lo; start <= w.hi && !matched; start++)
            {
                closest = expectedFor(model.history(), w.request, start);
                matched = closest.equals(seen);
            }
            if (!matched)
            {
                assertEquals(closest, seen, why("stream of " + w.request + " from [" + w.lo + ", " + w.hi + "]"));
            }
            assertEquals(List.of(), w.collector.progressOutOfOrder(), why("progress of " + w.request));
            for (final long[] progress : w.collector.progressSeen())
            {
                final long upTo = seen.stream().filter(e -> e.revision() <= progress[0]).count();
                assertTrue(progress[1] >= upTo, why("progress " + progress[0] + " of " + w.request + " after "
                    + progress[1] + " events, but " + upTo + " are at or below it"));
            }
        }
    }

    private static List<Event> expectedFor(final List<Event> history, final WatchRequest request, final long start)
    {
        final List<Event> expected = new ArrayList<>();
        for (final Event e : history)
        {
            if (e.revision() < start || !request.range().contains(e.kv().key()))
            {
                continue;
            }
            if ((e.type() == EventType.PUT && request.isNoPut()) || (e.type() == EventType.DELETE && request.isNoDelete()))
            {
                continue;
            }
            expected.add(request.prevKv() ? e : new Event(e.type(), e.kv(), null));
        }
        return expected;
    }

    String why(final String what)
    {
        return what + " [seed=" + seed + "]";
    }

    private static byte[] key(final Random random)
    {
        final int k = random.nextInt(KEYS);
        return Keys.utf8((k % 2 == 0 ? "a/" : "b/") + k);
    }

    private static byte[] value(final Random random)
    {
        final byte[] value = new byte[random.nextInt(24)];
        random.nextBytes(value);
        return value;
    }

    private static KeyRange randomRange(final Random random)
    {
        switch (random.nextInt(4))
        {
            case 0:
                return KeyRange.prefix(random.nextBoolean() ? "a/" : "b/1");
            case 1:
                return KeyRange.range("a/1", "b/2");
            case 2:
                return KeyRange.from(Keys.utf8("b/"));
            default:
                return KeyRange.all();
        }
    }

    private static KeyRange randomWatchRange(final Random random)
    {
        return random.nextInt(3) == 0 ? KeyRange.key(key(random)) : randomRange(random);
    }

    private static void sleepQuietly(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** One watcher under test and what it may legally have started at. */
    private static final class WatchUnderTest
    {
        final WatchRequest request;
        final Watcher watcher;
        final Collector collector;
        final long lo;
        final long hi;
        final RangeResult snapshot;

        WatchUnderTest(final WatchRequest request, final Watcher watcher, final Collector collector, final long lo,
            final long hi, final RangeResult snapshot)
        {
            this.request = request;
            this.watcher = watcher;
            this.collector = collector;
            this.lo = lo;
            this.hi = hi;
            this.snapshot = snapshot;
        }
    }

    /**
     * Keeps copies of a watcher's events and each progress with the number of events before it, and
     * notes a progress below an event or a progress delivered before it (a client-go reflector
     * would take it as a bookmark and go back).
     */
    private static final class Collector implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();
        private final List<long[]> progressSeen = new ArrayList<>();
        private final List<String> outOfOrder = new ArrayList<>();
        private long progress;
        private long lastEventRevision;
        private WatchCancellation cancellation;

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
                lastEventRevision = Math.max(lastEventRevision, batch.get(i).revision());
            }
        }

        @Override
        public synchronized void onProgress(final long revision)
        {
            if (revision < lastEventRevision || revision < progress)
            {
                outOfOrder.add("progress " + revision + " after event " + events.size() + " of revision "
                    + lastEventRevision + " and progress " + progress);
            }
            progressSeen.add(new long[] {revision, events.size()});
            progress = Math.max(progress, revision);
        }

        synchronized List<String> progressOutOfOrder()
        {
            return new ArrayList<>(outOfOrder);
        }

        synchronized List<long[]> progressSeen()
        {
            return new ArrayList<>(progressSeen);
        }

        @Override
        public synchronized void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        synchronized List<Event> events()
        {
            return new ArrayList<>(events);
        }

        synchronized long maxProgress()
        {
            return progress;
        }
    }

    /** A consistent range read taken during the writes. */
    private static final class Read
    {
        final KeyRange range;
        final int limit;
        final RangeResult result;

        Read(final KeyRange range, final int limit, final RangeResult result)
        {
            this.range = range;
            this.limit = limit;
            this.result = result;
        }
    }
}
