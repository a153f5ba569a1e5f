package io.ringwatch.informer;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounded buffer and its overflow policy, driven by hand on the test's thread (no handler
 * thread): what a handler is told when its ring is full, coalesced per key.
 */
class HandlerProcessTest
{
    private final CacheStore store = new CacheStore();
    private final RecordingHandler handler = new RecordingHandler();
    private final List<Throwable> errors = new ArrayList<>();
    private long revision;

    private HandlerProcess process(final int capacity, final Duration resync)
    {
        return new HandlerProcess("h", handler, resync, capacity, new ErrorReporter(errors::add), 0, h -> { });
    }

    @Test
    void aFullBufferCoalescesManyChangesOfOneKeyIntoOneUpdateFromWhatTheHandlerSaw()
    {
        final HandlerProcess h = process(2, Duration.ZERO);
        h.activate(store, true, 0);
        for (int i = 1; i <= 100; i++)
        {
            put(h, "k", "v" + i);
        }
        assertEquals(1, h.overflowCount(), "the ring filled once; everything after it waits, coalesced");
        drainFully(h);
        assertEquals(List.of("add k=v1", "update k=v2", "update k=v100"), handler.log());
        assertEquals(List.of(), handler.violations());
        assertEquals(InformerTestState.of(store.objects()), handler.state());
    }

    @Test
    void aKeyDeletedAndCreatedAgainWhileCoalescedIsToldAsADeleteThenAnAdd()
    {
        final HandlerProcess h = process(2, Duration.ZERO);
        h.activate(store, true, 0);
        put(h, "k", "a");
        put(h, "x", "1");
        put(h, "x", "2");
        delete(h, "k");
        put(h, "k", "b");
        drainFully(h);
        assertEquals(List.of("add k=a", "add x=1", "update x=2", "delete k", "add k=b"), handler.log());
        assertEquals(List.of(), handler.violations());
    }

    @Test
    void aKeyAddedAndDeletedWhileCoalescedIsNeverMentioned()
    {
        final HandlerProcess h = process(2, Duration.ZERO);
        h.activate(store, true, 0);
        put(h, "a", "1");
        put(h, "b", "1");
        put(h, "gone", "1");
        delete(h, "gone");
        drainFully(h);
        assertEquals(List.of("add a=1", "add b=1"), handler.log());
    }

    @Test
    void registrationDeliversEveryCachedObjectAsAnAddThenReportsSynced()
    {
        final HandlerProcess h = process(4, Duration.ZERO);
        for (int i = 0; i < 10; i++)
        {
            final CachedObject obj = object("k" + i, "v");
            store.put(obj);
        }
        h.activate(store, true, 0);
        h.flush(store);
        h.deliverQueued();
        assertFalse(h.hasSynced(), "only 4 of 10 adds fit the ring");
        drainFully(h);
        assertTrue(h.hasSynced());
        assertEquals(10, handler.notifications());
        assertEquals(InformerTestState.of(store.objects()), handler.state());
    }

    @Test
    void aHandlerRegisteredBeforeTheFirstListSyncsAfterTheListsAdds()
    {
        final HandlerProcess h = process(4, Duration.ZERO);
        h.activate(store, false, 0);
        drainFully(h);
        assertFalse(h.hasSynced(), "nothing listed yet");
        put(h, "a", "1");
        h.markSyncPoint();
        drainFully(h);
        assertTrue(h.hasSynced());
    }

    @Test
    void resyncRedeliversEveryObjectAsAnUpdateOfItselfAndMergesWithPendingChanges()
    {
        final HandlerProcess h = process(2, Duration.ofNanos(100));
        h.activate(store, true, 0);
        put(h, "a", "1");
        put(h, "b", "1");
        put(h, "c", "1");
        h.resyncIfDue(store, 50, true);
        assertTrue(handler.log().isEmpty());
        h.resyncIfDue(store, 100, true);
        drainFully(h);
        assertEquals(List.of("add a=1", "add b=1", "add c=1", "resync a=1", "resync b=1"), handler.log(),
            "c was still pending as an add when the resync came: one add covers both");
        assertEquals(2, handler.resyncs());
    }

    @Test
    void randomChangesAndPartialDrainsAlwaysRebuildTheCache()
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        for (int run = 0; run < 50; run++)
        {
            final CacheStore cache = new CacheStore();
            final RecordingHandler recorder = new RecordingHandler();
            final HandlerProcess h = new HandlerProcess(
                "h", recorder, Duration.ofNanos(7), 1 << (1 + random.nextInt(3)), new ErrorReporter(errors::add), 0, p -> { });
            h.activate(cache, true, 0);
            for (int step = 0; step < 300; step++)
            {
                final String key = "k" + random.nextInt(8);
                final int op = random.nextInt(10);
                if (op < 5)
                {
                    final CachedObject before = cache.get(ObjectKey.of(key));
                    final CachedObject after = before != null && random.nextBoolean() ?
                        new CachedObject(ObjectKey.of(key), bytes("v" + step), before.createRevision(), ++revision, before.version() + 1, 0) :
                        new CachedObject(ObjectKey.of(key), bytes("v" + step), ++revision, revision, 1, 0);
                    h.onChange(after.key(), cache.put(after), after);
                }
                else if (op < 7)
                {
                    final CachedObject gone = cache.remove(ObjectKey.of(key));
                    if (gone != null)
                    {
                        h.onChange(gone.key(), gone, null);
                    }
                }
                else if (op < 8)
                {
                    h.resyncIfDue(cache, step, true);
                }
                else if (op < 9)
                {
                    h.flush(cache);
                }
                else
                {
                    h.deliverQueued();
                }
            }
            drainFully(h, cache);
            assertEquals(List.of(), recorder.violations(), "seed " + seed + " run " + run);
            assertEquals(InformerTestState.of(cache.objects()), recorder.state(), "seed " + seed + " run " + run);
            assertTrue(h.hasSynced(), "seed " + seed + " run " + run);
        }
    }

    private void put(final HandlerProcess h, final String key, final String value)
    {
        final CachedObject before = store.get(ObjectKey.of(key));
        final CachedObject obj = before == null ?
            new CachedObject(ObjectKey.of(key), bytes(value), ++revision, revision, 1, 0) :
            new CachedObject(ObjectKey.of(key), bytes(value), before.createRevision(), ++revision, before.version() + 1, 0);
        h.onChange(obj.key(), store.put(obj), obj);
    }

    private void delete(final HandlerProcess h, final String key)
    {
        final CachedObject gone = store.remove(ObjectKey.of(key));
        h.onChange(gone.key(), gone, null);
    }

    private CachedObject object(final String key, final String value)
    {
        return new CachedObject(ObjectKey.of(key), bytes(value), ++revision, revision, 1, 0);
    }

    private void drainFully(final HandlerProcess h)
    {
        drainFully(h, store);
    }

    private static void drainFully(final HandlerProcess h, final CacheStore cache)
    {
        boolean progressed = true;
        while (progressed)
        {
            progressed = h.flush(cache) + h.deliverQueued() > 0;
        }
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
