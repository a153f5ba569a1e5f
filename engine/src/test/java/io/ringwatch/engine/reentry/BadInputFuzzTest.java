package io.ringwatch.engine.reentry;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.engine.watch.WatchRequest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded fuzz ({@code -Dringwatch.seed}) over the public write, read, watch, index, lease and
 * direct calls with invalid arguments: null, empty and oversize keys and values, buffer slices out
 * of their buffer, negative and future revisions, revisions before the compaction point, negative
 * limits, unknown index names, a list-and-watch with a start revision. (A watch from before the
 * compaction point is not among them: as in etcd it starts and is cancelled {@code COMPACTED}; a
 * lease TTL below the minimum is raised to it, and a negative lease id is granted, as etcd does.) Each call must throw a
 * {@link RingWatchException} (typed; never a {@code NullPointerException},
 * {@code IndexOutOfBoundsException} or the like) and change nothing: revision, compaction point,
 * keys and values, watcher count, index names and leases are compared with what they were before.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BadInputFuzzTest
{
    private static final int MAX_KEY = 16;
    private static final int MAX_VALUE = 32;
    private static final int CALLS = 3_000;

    @Test
    void everyInvalidCallThrowsATypedErrorAndChangesNothing()
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        final RingWatchConfig config = RingWatchConfig.builder().maxKeyBytes(MAX_KEY).maxValueBytes(MAX_VALUE).build();
        try (RingWatch engine = RingWatch.open(config))
        {
            engine.addIndex("self", (value, offset, length, sink) -> sink.accept(value, offset, length));
            for (int i = 0; i < 20; i++)
            {
                engine.put("k" + i, "v" + i);
            }
            engine.compact(5);
            final List<Named> calls = calls(engine, random);
            final Snapshot before = Snapshot.of(engine);
            final List<String> problems = new ArrayList<>();
            for (int i = 0; i < CALLS && problems.size() < 20; i++)
            {
                final Named call = calls.get(random.nextInt(calls.size()));
                final String what = call.name + " #" + i;
                try
                {
                    call.body.accept(random);
                    problems.add(what + ": accepted");
                }
                catch (final RingWatchException expected)
                {
                    // Typed.
                }
                catch (final RuntimeException | Error e)
                {
                    problems.add(what + ": untyped " + e);
                }
                if (i % 100 == 0 || !problems.isEmpty())
                {
                    final Snapshot after = Snapshot.of(engine);
                    if (!after.equals(before))
                    {
                        problems.add(what + ": changed " + before + " to " + after);
                    }
                }
            }
            assertTrue(problems.isEmpty(), "seed " + seed + ": " + problems);
            assertEquals(before, Snapshot.of(engine), "seed " + seed);
        }
    }

    private record Named(String name, Consumer<Random> body)
    {
    }

    private record Snapshot(long revision, long compacted, TreeMap<String, String> state, int watchers, String indexes,
        String leases)
    {
        static Snapshot of(final RingWatch engine)
        {
            return new Snapshot(engine.currentRevision(), engine.compactRevision(),
                CompletionWritesTest.contents(engine), engine.watcherCount(), engine.indexNames().toString(),
                Arrays.toString(engine.leases().leases()));
        }
    }

    private static List<Named> calls(final RingWatch engine, final Random r)
    {
        final List<Named> calls = new ArrayList<>();
        final DirectWriter direct = engine.newDirectWriter();
        calls.add(new Named("put", x -> engine.put(badKey(x), x.nextBoolean() ? value(x) : badValue(x))));
        calls.add(new Named("putValue", x -> engine.put(key(x), badValue(x))));
        calls.add(new Named("putString", x -> engine.put(x.nextBoolean() ? null : "", "v")));
        calls.add(new Named("compareAndPut", x -> engine.compareAndPut(key(x), value(x), -1 - x.nextInt(5))));
        calls.add(new Named("compareAndPutBad", x -> engine.compareAndPut(badKey(x), value(x), 0)));
        calls.add(new Named("delete", x -> engine.delete(badKey(x))));
        calls.add(new Named("deleteRange", x -> engine.delete((KeyRange)null)));
        calls.add(new Named("write", x -> engine.write(x.nextBoolean() ? null : Op.readAt(3))));
        calls.add(new Named("writeAsync", x -> engine.writeAsync(null)));
        calls.add(new Named("txnNull", x -> engine.txn(null)));
        calls.add(new Named("txnOversize", x -> engine.txn(Txn.of(List.of(), List.of(Op.put(key(x), value(x)),
            Op.put(new byte[MAX_KEY + 1 + x.nextInt(4)], value(x))), List.of()))));
        calls.add(new Named("txnDuplicate", x -> engine.txn(Txn.of(List.of(), List.of(Op.put("d", "1"), Op.put("d", "2")),
            List.of()))));
        calls.add(new Named("txnCompareOversize", x -> engine.txn(Txn.of(
            List.of(Compare.modRevisionIs(new byte[MAX_KEY + 1], 0)), List.of(Op.put("c", "1")), List.of()))));
        calls.add(new Named("txnFutureRead", x -> engine.txn(Txn.of(List.of(), List.of(Op.put("f", "1"),
            Op.readAt(engine.currentRevision() + 1 + x.nextInt(100))), List.of()))));
        calls.add(new Named("txnCompactedRead", x -> engine.txn(Txn.of(List.of(), List.of(Op.put("f", "1"),
            Op.readAt(1 + x.nextInt(3))), List.of()))));
        // A key over the limit is not refused by a read: no such key can exist, and it reads as absent.
        calls.add(new Named("get", x -> engine.get(x.nextBoolean() ? null : new byte[0])));
        calls.add(new Named("getDirect", x ->
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
            engine.get(buffer, x.nextBoolean() ? -1 : 4, 5 + x.nextInt(12), engine.newDirectEntry());
        }));
        calls.add(new Named("directPut", x ->
        {
            final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
            final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
            switch (x.nextInt(3))
            {
                case 0 -> direct.put(key, 0, 1 + x.nextInt(8), value, -1 - x.nextInt(2), 1);
                case 1 -> direct.put(key, 0, 1, value, 0, 9 + x.nextInt(4));
                default -> direct.put(key, 7, 2 + x.nextInt(6), value, 0, 1);
            }
        }));
        calls.add(new Named("directDelete", x -> direct.delete(new UnsafeBuffer(new byte[4]), x.nextBoolean() ? -1 : 2,
            3 + x.nextInt(4))));
        calls.add(new Named("directNullBuffer", x -> direct.put(null, 0, 1, new UnsafeBuffer(new byte[4]), 0, 1)));
        calls.add(new Named("directPutAsync", x -> direct.putAsync(new UnsafeBuffer(new byte[4]), 2, 3 + x.nextInt(4),
            new UnsafeBuffer(new byte[4]), 0, 1, null)));
        calls.add(new Named("range", x -> engine.range(x.nextBoolean() ? null : KeyRange.all(), -1 - x.nextInt(5))));
        calls.add(new Named("rangeAt", x -> engine.range(KeyRange.all(), 0, badRevision(engine, x))));
        calls.add(new Named("rangeAtLimit", x -> engine.range(KeyRange.all(), -1 - x.nextInt(5), 10)));
        calls.add(new Named("count", x -> engine.count(null)));
        calls.add(new Named("reversedRange", x -> engine.range(KeyRange.range("b", x.nextBoolean() ? "a" : "b"), 0)));
        calls.add(new Named("compact", x -> engine.compact(x.nextBoolean() ? -x.nextInt(5) : engine.currentRevision() + 1 + x.nextInt(9))));
        calls.add(new Named("compactBack", x -> engine.compact(1 + x.nextInt(5))));
        calls.add(new Named("waitForRevision", x -> engine.waitForRevision(x.nextBoolean() ? -1 : 1, x.nextBoolean() ? null :
            Duration.ofMillis(-1))));
        calls.add(new Named("watch", x -> engine.watch(x.nextBoolean() ? null : WatchRequest.of(KeyRange.all()), null)));
        calls.add(new Named("watchStart", x -> engine.watch(WatchRequest.of(KeyRange.all()).startRevision(-1 - x.nextInt(5)),
            events -> { })));
        calls.add(new Named("watchPull", x -> engine.watchPull(null)));
        calls.add(new Named("watchUnknownIndex", x -> engine.watchPull(WatchRequest.byIndex(x.nextBoolean() ? "nope" : "", "v"))));
        calls.add(new Named("watchDeltas", x -> engine.watchDeltas(null)));
        calls.add(new Named("listAndWatch", x -> engine.listAndWatch(WatchRequest.of(KeyRange.all()).startRevision(1 + x.nextInt(20)),
            events -> { })));
        calls.add(new Named("listAndWatchNull", x -> engine.listAndWatchPull(null)));
        calls.add(new Named("listAndWatchNoListener", x -> engine.listAndWatch(WatchRequest.of(KeyRange.all()), null)));
        calls.add(new Named("listAndWatchUnknownIndex", x -> engine.listAndWatchPull(WatchRequest.byIndex("nope", "v"))));
        calls.add(new Named("addIndex", x -> engine.addIndex(x.nextBoolean() ? null : "", (v, o, l, s) -> { })));
        calls.add(new Named("addIndexNoFunction", x -> engine.addIndex("fresh", null)));
        calls.add(new Named("addIndexDuplicate", x -> engine.addIndex("self", (v, o, l, s) -> { })));
        calls.add(new Named("removeIndex", x -> engine.removeIndex(x.nextBoolean() ? "nope" : null)));
        calls.add(new Named("byIndex", x -> engine.byIndex(x.nextBoolean() ? "nope" : null, "v1")));
        calls.add(new Named("byIndexNullValue", x -> engine.byIndex("self", (byte[])null)));
        calls.add(new Named("indexValues", x -> engine.indexValues(x.nextBoolean() ? "nope" : null)));
        calls.add(new Named("leaseGrant", x -> engine.leases().grant(Leases.MAX_TTL_SECONDS + 1 + x.nextInt(5))));
        calls.add(new Named("leaseKeepAlive", x -> engine.leases().keepAlive(1_000 + x.nextInt(1_000))));
        calls.add(new Named("leaseRevoke", x -> engine.leases().revoke(1_000 + x.nextInt(1_000))));
        calls.add(new Named("leaseTimeToLive", x -> engine.leases().timeToLive(-x.nextInt(3), true)));
        calls.add(new Named("putUnknownLease", x -> engine.write(Op.put(key(x), value(x)).withLease(1_000 + x.nextInt(1_000)))));
        return calls;
    }

    private static long badRevision(final RingWatch engine, final Random x)
    {
        switch (x.nextInt(3))
        {
            case 0:
                return -1 - x.nextInt(10);
            case 1:
                return engine.currentRevision() + 1 + x.nextInt(100);
            default:
                return 1 + x.nextInt(4);
        }
    }

    private static byte[] key(final Random x)
    {
        return ("k" + x.nextInt(30)).getBytes();
    }

    private static byte[] value(final Random x)
    {
        return new byte[x.nextInt(MAX_VALUE + 1)];
    }

    private static byte[] badKey(final Random x)
    {
        switch (x.nextInt(3))
        {
            case 0:
                return null;
            case 1:
                return new byte[0];
            default:
                return new byte[MAX_KEY + 1 + x.nextInt(8)];
        }
    }

    private static byte[] badValue(final Random x)
    {
        return x.nextBoolean() ? null : new byte[MAX_VALUE + 1 + x.nextInt(8)];
    }
}
