package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model test of pinned reads: several writer threads put, delete, delete ranges and commit
 * two-key transactions at random while reader threads run random range reads (with and without
 * a limit), counts, byIndex reads, list-then-watches (by range and by index) and reads at a past
 * revision, on an engine whose watch window is far too small to repair a scan. Afterwards every
 * write is ordered by its revision into a reference model, and every read must equal the model at
 * its revision (a count, which reports no revision, the model at some revision during the call;
 * a list-then-watch's first events the model's changes after the snapshot, by index with
 * old-OR-new value semantics). Seeded: the seed is printed and in every failure message; rerun
 * with {@code -Dringwatch.seed=<seed>}.
 */
class PinnedReadModelTest
{
    private static final boolean LONG = Boolean.getBoolean("ringwatch.long");
    private static final int KEYS = 800;
    private static final int WRITERS = 3;
    private static final int READERS = 2;
    private static final int WRITES_PER_WRITER = LONG ? 100_000 : 8_000;
    private static final String[] NAMESPACES = {"", "a", "b", "c"};
    private static final IndexFunction NAMESPACE = IndexFunction.ofStrings(value ->
    {
        final String text = new String(value, StandardCharsets.UTF_8);
        final String ns = text.substring(0, text.indexOf('|'));
        return ns.isEmpty() ? List.of() : List.of(ns);
    });

    @Test
    void everyReadEqualsTheReferenceModelAtItsRevision() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("PinnedReadModelTest seed=" + seed);
        final ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Read> reads = new ConcurrentLinkedQueue<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(64, 64).build()))
        {
            engine.addIndex("ns", NAMESPACE);
            final AtomicBoolean writing = new AtomicBoolean(true);
            final List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++)
            {
                final Random random = new Random(seed * 31 + w);
                threads.add(new Thread(() -> guard(failure, () -> write(engine, random, writes)), "writer-" + w));
            }
            final List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++)
            {
                final Random random = new Random(seed * 37 + r);
                readers.add(new Thread(() -> guard(failure, () ->
                {
                    while (writing.get())
                    {
                        reads.add(read(engine, random));
                    }
                }), "reader-" + r));
            }
            threads.forEach(Thread::start);
            readers.forEach(Thread::start);
            for (final Thread thread : threads)
            {
                thread.join();
            }
            writing.set(false);
            for (final Thread thread : readers)
            {
                thread.join();
            }
        }
        assertNull(failure.get(), () -> "seed " + seed + ": " + failure.get());
        check(seed, writes, reads);
    }

    private static void write(final RingWatch engine, final Random random, final ConcurrentLinkedQueue<Write> writes)
    {
        for (int i = 0; i < WRITES_PER_WRITER; i++)
        {
            final int choice = random.nextInt(20);
            if (choice < 13)
            {
                final Op op = Op.put(key(random.nextInt(KEYS)), value(random));
                writes.add(new Write(engine.write(op).revision(), List.of(op)));
            }
            else if (choice < 16)
            {
                final Op op = Op.delete(key(random.nextInt(KEYS)));
                record(writes, engine.write(op), op);
            }
            else if (choice < 17)
            {
                final int from = random.nextInt(KEYS);
                final Op op = Op.delete(KeyRange.range(key(from), key(Math.min(KEYS, from + 1 + random.nextInt(20)))));
                record(writes, engine.write(op), op);
            }
            else
            {
                final int first = random.nextInt(KEYS);
                final int second = (first + 1 + random.nextInt(KEYS - 1)) % KEYS;
                final List<Op> ops = List.of(Op.put(key(first), value(random)), Op.put(key(second), value(random)));
                writes.add(new Write(engine.txn(Txn.of(List.of(), ops, List.of())).revision(), ops));
            }
        }
    }

    private static void record(final ConcurrentLinkedQueue<Write> writes, final WriteResult result, final Op op)
    {
        if (result.deleted() > 0)
        {
            writes.add(new Write(result.revision(), List.of(op)));
        }
    }

    private static Read read(final RingWatch engine, final Random random) throws InterruptedException
    {
        final int from = random.nextInt(KEYS);
        final KeyRange range = random.nextInt(4) == 0 ? KeyRange.prefix("/m/") :
            KeyRange.range(key(from), key(Math.min(KEYS, from + 1 + random.nextInt(KEYS / 2))));
        switch (random.nextInt(6))
        {
            case 0:
            case 1:
            {
                final int limit = random.nextBoolean() ? 0 : 1 + random.nextInt(60);
                return Read.range(range, limit, engine.range(range, limit));
            }
            case 2:
            {
                final long low = engine.currentRevision();
                final long count = engine.count(range);
                return Read.count(range, count, low, engine.currentRevision());
            }
            case 3:
            {
                final String ns = NAMESPACES[1 + random.nextInt(NAMESPACES.length - 1)];
                return Read.byIndex(ns, engine.byIndex("ns", ns));
            }
            case 4:
            {
                final String ns = random.nextBoolean() ? null : NAMESPACES[1 + random.nextInt(NAMESPACES.length - 1)];
                final ListWatch<PullWatcher> list = engine.listAndWatchPull(
                    ns == null ? WatchRequest.of(range) : WatchRequest.byIndex("ns", ns));
                final List<Event> events = new ArrayList<>();
                try (PullWatcher watcher = list.watcher())
                {
                    for (int i = 0; i < 3 && events.size() < 20; i++)
                    {
                        final WatchResponse response = watcher.next(Duration.ofMillis(20));
                        if (response == null || response.cancellation() != null)
                        {
                            break;
                        }
                        events.addAll(response.events());
                    }
                }
                return Read.list(ns == null ? range : null, ns, list.snapshot(), events);
            }
            default:
            {
                final long at = engine.currentRevision() - random.nextInt(40);
                if (at < 1)
                {
                    return Read.range(range, 0, engine.range(range, 0));
                }
                try
                {
                    return Read.range(range, 0, engine.range(range, 0, at));
                }
                catch (final CompactedException e)
                {
                    return Read.range(range, 0, engine.range(range, 0));
                }
            }
        }
    }

    private static void check(final long seed, final ConcurrentLinkedQueue<Write> writes, final ConcurrentLinkedQueue<Read> reads)
    {
        final List<Write> ordered = new ArrayList<>(writes);
        ordered.sort(Comparator.comparingLong(Write::revision));
        final long base = ordered.get(0).revision() - 1;
        for (int i = 0; i < ordered.size(); i++)
        {
            assertEquals(base + 1 + i, ordered.get(i).revision(), "seed " + seed + ": revisions are dense");
        }
        final List<Read> byRevision = new ArrayList<>(reads);
        byRevision.sort(Comparator.comparingLong(Read::low));
        assertTrue(byRevision.size() > 10, "seed " + seed + ": reads ran");
        final TreeMap<String, KeyValue> state = new TreeMap<>();
        final List<List<Event>> changes = new ArrayList<>();
        for (long r = 0; r <= base; r++)
        {
            changes.add(List.of());
        }
        for (final Write write : ordered)
        {
            changes.add(apply(state, write));
        }
        // Replay once more, checking each read when the model reaches its revision.
        final TreeMap<String, KeyValue> model = new TreeMap<>();
        long revision = base;
        int next = 0;
        for (final Read read : byRevision)
        {
            while (revision < read.low())
            {
                revision++;
                apply(model, ordered.get((int)(revision - base - 1)));
            }
            long at = revision;
            final TreeMap<String, KeyValue> seen = new TreeMap<>(model);
            boolean matched = read.matches(seen, changes, at);
            while (!matched && at < read.high())
            {
                at++;
                apply(seen, ordered.get((int)(at - base - 1)));
                matched = read.matches(seen, changes, at);
            }
            assertTrue(matched, "seed " + seed + ": " + read + " differs from the model at " + read.low() + ".." + read.high());
            next++;
        }
        assertEquals(byRevision.size(), next);
        System.out.println("PinnedReadModelTest seed=" + seed + ": " + ordered.size() + " writes, " + next + " reads checked");
    }

    private static List<Event> apply(final TreeMap<String, KeyValue> state, final Write write)
    {
        final long revision = write.revision();
        final List<Event> events = new ArrayList<>();
        for (final Op op : write.ops())
        {
            if (op.kind() == Op.Kind.PUT)
            {
                final String key = new String(op.key(), StandardCharsets.UTF_8);
                final KeyValue before = state.get(key);
                final KeyValue after = new KeyValue(op.key(), op.value(), before == null ? revision : before.createRevision(),
                    revision, before == null ? 1 : before.version() + 1);
                state.put(key, after);
                events.add(new Event(EventType.PUT, after, before));
            }
            else
            {
                final List<String> doomed = new ArrayList<>();
                for (final String key : state.keySet())
                {
                    if (op.range().contains(key.getBytes(StandardCharsets.UTF_8)))
                    {
                        doomed.add(key);
                    }
                }
                for (final String key : doomed)
                {
                    final KeyValue before = state.remove(key);
                    events.add(new Event(EventType.DELETE, new KeyValue(before.key(), new byte[0], 0, revision, 0), before));
                }
            }
        }
        return events;
    }

    private static byte[] key(final int k)
    {
        return String.format("/m/%04d", k).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(final Random random)
    {
        return (NAMESPACES[random.nextInt(NAMESPACES.length)] + "|" + random.nextInt(1_000_000)).getBytes(StandardCharsets.UTF_8);
    }

    private static void guard(final AtomicReference<Throwable> failure, final ThrowingRunnable body)
    {
        try
        {
            body.run();
        }
        catch (final Throwable t)
        {
            failure.compareAndSet(null, t);
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable
    {
        void run() throws Exception;
    }

    private record Write(long revision, List<Op> ops)
    {
    }

    /** One read and what it returned; {@code low..high} is where its revision must lie. */
    private record Read(String kind, KeyRange range, int limit, String ns, RangeResult result, long count,
        List<Event> events, long low, long high)
    {
        static Read range(final KeyRange range, final int limit, final RangeResult result)
        {
            return new Read("range", range, limit, null, result, 0, List.of(), result.revision(), result.revision());
        }

        static Read count(final KeyRange range, final long count, final long low, final long high)
        {
            return new Read("count", range, 0, null, null, count, List.of(), low, high);
        }

        static Read byIndex(final String ns, final RangeResult result)
        {
            return new Read("byIndex", null, 0, ns, result, 0, List.of(), result.revision(), result.revision());
        }

        static Read list(final KeyRange range, final String ns, final RangeResult result, final List<Event> events)
        {
            return new Read("list", range, 0, ns, result, 0, events, result.revision(), result.revision());
        }

        boolean matches(final TreeMap<String, KeyValue> state, final List<List<Event>> changes, final long at)
        {
            final List<KeyValue> expected = new ArrayList<>();
            for (final KeyValue kv : state.values())
            {
                if (ns != null ? kv.valueAsString().startsWith(ns + "|") : range.contains(kv.key()))
                {
                    expected.add(kv);
                }
            }
            switch (kind)
            {
                case "count":
                    return count == expected.size();
                case "range":
                    final List<KeyValue> page = limit > 0 && expected.size() > limit ? expected.subList(0, limit) : expected;
                    return result.kvs().equals(page) && result.more() == (limit > 0 && expected.size() > limit);
                case "byIndex":
                    return result.kvs().equals(expected);
                default:
                    return result.kvs().equals(expected) && eventsFollow(changes, at);
            }
        }

        private boolean eventsFollow(final List<List<Event>> changes, final long at)
        {
            final List<Event> expected = new ArrayList<>();
            for (long r = at + 1; r < changes.size() && expected.size() < events.size(); r++)
            {
                for (final Event event : changes.get((int)r))
                {
                    if (ns == null)
                    {
                        if (range.contains(event.kv().key()))
                        {
                            expected.add(event);
                        }
                        continue;
                    }
                    // A watch by index: old OR new value, an add when the key enters, a delete when it leaves.
                    final boolean oldMatches = event.prevKv() != null && event.prevKv().valueAsString().startsWith(ns + "|");
                    final boolean newMatches = event.type() == EventType.PUT && event.kv().valueAsString().startsWith(ns + "|");
                    if (newMatches)
                    {
                        expected.add(event);
                    }
                    else if (oldMatches)
                    {
                        expected.add(new Event(EventType.DELETE, new KeyValue(event.kv().key(), new byte[0], 0,
                            event.revision(), 0), event.prevKv()));
                    }
                }
            }
            if (expected.size() < events.size())
            {
                return false;
            }
            for (int i = 0; i < events.size(); i++)
            {
                final Event got = events.get(i);
                final Event want = expected.get(i);
                if (got.type() != want.type() || !got.kv().keyAsString().equals(want.kv().keyAsString()) ||
                    got.revision() != want.revision() ||
                    (got.type() == EventType.PUT && !got.kv().equals(want.kv())))
                {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString()
        {
            return kind + " " + (ns != null ? "ns=" + ns : range) + " limit " + limit + " -> " +
                (result == null ? "count " + count : "revision " + result.revision() + ", " + result.kvs().size() + " kvs") +
                (events.isEmpty() ? "" : ", " + events.size() + " events");
        }
    }
}
