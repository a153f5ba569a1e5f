package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * client-go's "too old resource version" path under adversity: clients watch from revision 1 of a
 * log far beyond the window (so they catch up from the log, or from the window's edge in memory),
 * while one thread writes and another compacts at rising points every few milliseconds. Each
 * client, on a COMPACTED (or REVISION_UNAVAILABLE) end, relists at the named revision (or at the
 * current one when that is compacted meanwhile), checks the listed state against the reference the
 * writer built, and watches on from the list's revision + 1. Every event must be the next revision
 * (one put or delete per revision), a cancellation must name a point past what the client had seen,
 * and at the end each client's cache equals the engine's state. Passed on first writing (no bug
 * found); kept as a guard.
 */
class RelistAfterCompactionScenarioTest
{
    private static final int KEYS = 64;
    private static final int PRELOAD = Scenario.LONG ? 60_000 : 6_000;
    private static final int LIVE = Scenario.LONG ? 60_000 : 6_000;
    private static final int CLIENTS = 4;

    @TempDir
    Path dir;

    /** The value each revision wrote to its key, or null for a delete. */
    private final Map<Long, String[]> written = new java.util.concurrent.ConcurrentHashMap<>();

    @ParameterizedTest
    @EnumSource(Scenario.Mode.class)
    void clientsThatRelistAfterEachCompactedEndConvergeWithNoGap(final Scenario.Mode mode) throws Exception
    {
        // A SYNC put waits for its fsync: fewer of them keep the default run short.
        final int scale = mode == Scenario.Mode.SYNC ? 3 : 1;
        try (RingWatch engine = RingWatch.open(mode.builder(dir).windowCapacity(1024, 1024).build()))
        {
            for (int i = 0; i < PRELOAD / scale; i++)
            {
                write(engine, i);
            }
            // A compaction before the clients start makes every one relist at least once, however
            // fast it would otherwise catch up from the log; the compactor then races the rest.
            engine.compact(PRELOAD / scale / 2);
            final AtomicBoolean done = new AtomicBoolean();
            final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            final List<Client> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++)
            {
                final Client client = new Client(engine, failures);
                clients.add(client);
                client.watchFrom(1);
            }
            final Thread compactor = new Thread(() ->
            {
                while (!done.get())
                {
                    final long current = engine.currentRevision();
                    final long point = current - 500;
                    if (point > engine.compactRevision())
                    {
                        try
                        {
                            engine.compact(point);
                        }
                        catch (final CompactedException raced)
                        {
                            // Another compaction got there first: fine.
                        }
                    }
                    try
                    {
                        Thread.sleep(3);
                    }
                    catch (final InterruptedException e)
                    {
                        return;
                    }
                }
            }, "compactor");
            compactor.start();
            for (int i = PRELOAD / scale; i < (PRELOAD + LIVE) / scale; i++)
            {
                write(engine, i);
            }
            done.set(true);
            compactor.join();
            final long last = engine.currentRevision();
            for (final Client client : clients)
            {
                Scenario.await(() -> client.seen.get() == last || !failures.isEmpty(),
                    () -> "a client reaching revision " + last + " (at " + client.seen.get() + ", " + client.relists + " relists)");
            }
            assertTrue(failures.isEmpty(), () -> "failures: " + failures);
            final Map<String, String> state = new HashMap<>();
            for (final KeyValue kv : engine.range(KeyRange.all(), 0).kvs())
            {
                state.put(kv.keyAsString(), kv.valueAsString());
            }
            long relists = 0;
            for (final Client client : clients)
            {
                synchronized (client)
                {
                    assertEquals(state, client.cache);
                }
                relists += client.relists.get();
            }
            assertTrue(relists > 0, "the scenario made no client relist");
        }
    }

    /** Revision i + 1 puts (or, every seventh, deletes) key i % KEYS. */
    private void write(final RingWatch engine, final int i)
    {
        final String key = "k" + (i % KEYS);
        final long revision;
        if (i % 7 == 6)
        {
            revision = engine.delete(key).revision();
            written.put(revision, new String[] {key, null});
        }
        else
        {
            final String value = "v" + i;
            revision = engine.put(key, value).revision();
            written.put(revision, new String[] {key, value});
        }
    }

    /** The reference state at {@code revision}, from what the writer recorded. */
    private Map<String, String> reference(final long revision)
    {
        final Map<String, String> state = new HashMap<>();
        for (long r = 1; r <= revision; r++)
        {
            final long at = r;
            // The writer records a revision just after the engine applied it.
            Scenario.await(() -> written.containsKey(at), "the writer recording revision " + at);
            final String[] change = written.get(r);
            if (change[1] == null)
            {
                state.remove(change[0]);
            }
            else
            {
                state.put(change[0], change[1]);
            }
        }
        return state;
    }

    /** An informer by hand: a cache, a watch, and a relist on each history-lost end. */
    private final class Client implements WatchListener
    {
        private final RingWatch engine;
        private final ConcurrentLinkedQueue<Throwable> failures;
        final Map<String, String> cache = new HashMap<>();
        final AtomicLong seen = new AtomicLong();
        final AtomicLong relists = new AtomicLong();
        private final AtomicReference<Thread> relister = new AtomicReference<>();

        Client(final RingWatch engine, final ConcurrentLinkedQueue<Throwable> failures)
        {
            this.engine = engine;
            this.failures = failures;
        }

        void watchFrom(final long revision)
        {
            engine.watch(WatchRequest.of(KeyRange.all()).startRevision(revision), this);
        }

        @Override
        public synchronized void onEvents(final EventBatch events)
        {
            for (int i = 0; i < events.size(); i++)
            {
                final WatchEvent event = events.get(i);
                if (event.revision() != seen.get() + 1)
                {
                    failures.add(new AssertionError("revision " + event.revision() + " after " + seen.get()));
                }
                final String key = event.toEvent().kv().keyAsString();
                if (event.type() == EventType.DELETE)
                {
                    cache.remove(key);
                }
                else
                {
                    cache.put(key, event.toEvent().kv().valueAsString());
                }
                seen.set(event.revision());
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            final CancelReason reason = cancellation.reason();
            if (reason == CancelReason.ENGINE_CLOSED)
            {
                return;
            }
            if (reason != CancelReason.COMPACTED && reason != CancelReason.REVISION_UNAVAILABLE)
            {
                failures.add(new AssertionError("unexpected end " + cancellation));
                return;
            }
            if (cancellation.compactRevision() <= seen.get())
            {
                failures.add(new AssertionError("cancelled at " + seen.get() + " naming " + cancellation));
            }
            // Relist off the engine's threads, as an informer's reflector does.
            final Thread thread = new Thread(() -> relist(cancellation.compactRevision()), "relist");
            relister.set(thread);
            thread.start();
        }

        private void relist(final long at)
        {
            relists.incrementAndGet();
            long revision = at;
            RangeResult listed;
            while (true)
            {
                try
                {
                    listed = engine.range(KeyRange.all(), 0, revision);
                    break;
                }
                catch (final CompactedException compacted)
                {
                    revision = engine.currentRevision();
                }
                catch (final RuntimeException | Error e)
                {
                    failures.add(e);
                    return;
                }
            }
            final Map<String, String> state = new HashMap<>();
            for (final KeyValue kv : listed.kvs())
            {
                state.put(kv.keyAsString(), kv.valueAsString());
            }
            final Map<String, String> expected = reference(revision);
            if (!expected.equals(state))
            {
                failures.add(new AssertionError("the list at " + revision + " differs from the reference"));
            }
            synchronized (this)
            {
                cache.clear();
                cache.putAll(state);
                seen.set(revision);
            }
            watchFrom(revision + 1);
        }
    }
}
