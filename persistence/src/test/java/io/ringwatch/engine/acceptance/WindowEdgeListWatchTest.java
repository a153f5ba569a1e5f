package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;

/**
 * List-then-watch exactly at the in-memory window's edge: the oldest revision a watch may start from
 * (E, found by probing with watches while no write runs) and a list at E - 1. Quiet, both must
 * succeed and agree with the reference; then with a writer overwriting the window meanwhile, each
 * may be refused (CompactedException, REVISION_UNAVAILABLE) but whatever succeeds must be exact:
 * the listed state plus the watched events from E give the final state, with no gap. Passed on
 * first writing; kept as a guard.
 */
class WindowEdgeListWatchTest
{
    private static final int WINDOW = 1024;
    private static final int KEYS = 64;

    @Test
    void aListAtTheEdgeThenAWatchFromItIsExactQuietAndUnderWrites() throws Exception
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(WINDOW, WINDOW).build()))
        {
            for (int i = 0; i < 5 * WINDOW; i++)
            {
                engine.put("k" + (i % KEYS), "v" + i);
            }
            final long edge = edge(engine);
            assertTrue(edge > 1 && edge <= engine.currentRevision(), "edge " + edge);
            assertEquals(engine.currentRevision(), listThenWatch(engine, edge, false), "quiet: the watch reached the end");

            final AtomicBoolean stop = new AtomicBoolean();
            final Thread writer = new Thread(() ->
            {
                for (int i = 0; !stop.get() && i < 20 * WINDOW; i++)
                {
                    engine.put("k" + (i % KEYS), "w" + i);
                }
            }, "writer");
            writer.start();
            for (int round = 0; round < 20 && writer.isAlive(); round++)
            {
                listThenWatch(engine, edge(engine), true);
            }
            stop.set(true);
            writer.join();
        }
    }

    /** The smallest revision a watch may start from now, probed with watches (exact while nothing writes). */
    private static long edge(final RingWatch engine) throws Exception
    {
        long lo = 1;
        long hi = engine.currentRevision();
        while (lo < hi)
        {
            final long mid = (lo + hi) >>> 1;
            if (startsAt(engine, mid))
            {
                hi = mid;
            }
            else
            {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private static boolean startsAt(final RingWatch engine, final long start) throws Exception
    {
        final CompletableFuture<WatchCancellation> ended = new CompletableFuture<>();
        final CompletableFuture<Boolean> delivered = new CompletableFuture<>();
        final var watcher = engine.watch(WatchRequest.of(KeyRange.all()).startRevision(start), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                delivered.complete(true);
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                ended.complete(cancellation);
            }
        });
        CompletableFuture.anyOf(ended, delivered).get(60, TimeUnit.SECONDS);
        watcher.cancel();
        return !ended.isDone() || ended.get().reason() == CancelReason.CANCELLED_BY_CLIENT;
    }

    /**
     * Lists at {@code edge - 1}, watches from {@code edge} into a copy of the list and, once writes
     * stop or the watch reaches the current revision, checks the copy against the engine.
     *
     * @return the revision the copy was checked at, or 0 when the list or the watch was refused (allowed only under writes).
     */
    private static long listThenWatch(final RingWatch engine, final long edge, final boolean underWrites) throws Exception
    {
        final Map<String, String> cache = new HashMap<>();
        try
        {
            for (final KeyValue kv : engine.range(KeyRange.all(), 0, edge - 1).kvs())
            {
                cache.put(kv.keyAsString(), kv.valueAsString());
            }
        }
        catch (final CompactedException refused)
        {
            assertTrue(underWrites, "a quiet list at the edge was refused: " + refused);
            return 0;
        }
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final AtomicLong seen = new AtomicLong(edge - 1);
        final CompletableFuture<WatchCancellation> ended = new CompletableFuture<>();
        final var watcher = engine.watch(WatchRequest.of(KeyRange.all()).startRevision(edge), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch events)
            {
                synchronized (cache)
                {
                    for (int i = 0; i < events.size(); i++)
                    {
                        final WatchEvent event = events.get(i);
                        if (event.revision() != seen.get() + 1)
                        {
                            failures.add("revision " + event.revision() + " after " + seen.get());
                        }
                        final KeyValue kv = event.toEvent().kv();
                        if (event.type() == EventType.DELETE)
                        {
                            cache.remove(kv.keyAsString());
                        }
                        else
                        {
                            cache.put(kv.keyAsString(), kv.valueAsString());
                        }
                        seen.set(event.revision());
                    }
                }
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
                ended.complete(cancellation);
            }
        });
        final long target = engine.currentRevision();
        Scenario.await(() -> seen.get() >= target || ended.isDone(), "the watch from the edge reaching " + target);
        watcher.cancel();
        final WatchCancellation ending = ended.getNow(null);
        if (ending != null && ending.reason() != CancelReason.CANCELLED_BY_CLIENT)
        {
            assertTrue(underWrites, "a quiet watch from the edge ended " + ending);
            assertEquals(CancelReason.REVISION_UNAVAILABLE, ending.reason(), ending.toString());
            return 0;
        }
        assertTrue(failures.isEmpty(), () -> failures.toString());
        final long at = seen.get();
        final Map<String, String> reference = new HashMap<>();
        try
        {
            for (final KeyValue kv : engine.range(KeyRange.all(), 0, at).kvs())
            {
                reference.put(kv.keyAsString(), kv.valueAsString());
            }
        }
        catch (final CompactedException overtaken)
        {
            // The writer moved the window past the revision to check at: nothing to compare with.
            assertTrue(underWrites, "a quiet read at " + at + " was refused: " + overtaken);
            return 0;
        }
        synchronized (cache)
        {
            assertEquals(reference, cache, "the list at " + (edge - 1) + " plus the events up to " + at);
        }
        return at;
    }
}
