package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One lease holding as many keys as Kubernetes gives a minute of Events: attached in random order,
 * some detached by a put without the lease or by a delete, then revoked in one revision that
 * deletes exactly the rest, in key order.
 */
class LeaseManyKeysTest
{
    private static final int KEYS = 200_000;

    @Test
    void aLeaseOfTwoHundredThousandKeysIsRevokedInOneRevisionInKeyOrder() throws Exception
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .windowCapacity(1 << 18, 1 << 18)
            .watcherQueueDepth(1 << 18)
            .build()))
        {
            final long lease = engine.leases().grant(3_600).id();
            final List<Integer> order = new ArrayList<>(IntStream.range(0, KEYS).boxed().toList());
            Collections.shuffle(order, new Random(15));
            await(engine, order, i -> Op.put(key(i), "v").withLease(lease));
            final TreeSet<String> left = new TreeSet<>(order.stream().map(LeaseManyKeysTest::key).toList());
            assertEquals(new ArrayList<>(left), engine.leases().timeToLive(lease, true).keys().stream()
                .map(k -> new String(k, StandardCharsets.UTF_8)).toList(), "attached keys listed in key order");
            final List<Integer> detached = order.stream().filter(i -> i % 7 == 0).toList();
            await(engine, detached, i -> Op.put(key(i), "free"));
            final List<Integer> deleted = order.stream().filter(i -> i % 11 == 0).toList();
            await(engine, deleted, i -> Op.delete(key(i)));
            detached.forEach(i -> left.remove(key(i)));
            deleted.forEach(i -> left.remove(key(i)));

            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()).noPut());
            final long revoked = engine.leases().revoke(lease);

            final List<String> deletes = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (deletes.size() < left.size() && System.nanoTime() < deadline)
            {
                for (final Event event : watcher.next(Duration.ofSeconds(1)).events())
                {
                    assertEquals(EventType.DELETE, event.type());
                    assertEquals(revoked, event.revision(), "one revision for the whole lease");
                    deletes.add(event.kv().keyAsString());
                }
            }
            assertEquals(new ArrayList<>(left), deletes, "exactly the keys still attached, in key order");
            assertEquals(detached.stream().filter(i -> i % 11 != 0).count(), engine.count(KeyRange.all()), "the detached keys stay");
            assertEquals(0, engine.leases().leases().length);
        }
    }

    private static void await(final RingWatch engine, final List<Integer> keys, final IntFunction<Op> op)
        throws Exception
    {
        final List<CompletableFuture<?>> inFlight = new ArrayList<>();
        for (final int i : keys)
        {
            inFlight.add(engine.writeAsync(op.apply(i)));
            if (inFlight.size() == 1_000)
            {
                CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                inFlight.clear();
            }
        }
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    private static String key(final int i)
    {
        return String.format("/registry/events/default/e%06d", i);
    }
}
