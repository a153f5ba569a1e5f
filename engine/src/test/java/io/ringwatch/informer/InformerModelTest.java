package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-based: random writes (single, async bursts, range deletes), compactions, forced
 * cancellations (the informer held still while a 16-event window is lapped) and relists, handlers
 * that are slow, throwing, added late and removed. Afterwards the cache equals the engine's
 * state, and every handler's notifications, applied to an empty map, rebuild that state with no
 * duplicate add, no update or delete of a key it was not given, and the right old objects.
 * Seeded: set -Dringwatch.seed to replay a failure.
 */
class InformerModelTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/m/");
    private static final int RUNS = 3;
    private static final int STEPS = 250;

    /** The resync period of the handlers this run adds. */
    private Duration resync = Duration.ZERO;

    @Test
    void theCacheAndEveryHandlerConvergeToTheEngineThroughCancelsAndRelists() throws InterruptedException
    {
        final long base = Long.getLong("ringwatch.seed", System.nanoTime());
        for (int run = 0; run < RUNS; run++)
        {
            runOnce(base + run);
        }
    }

    /**
     * The same with every handler resyncing each millisecond, so resyncs fall during relists, stalls
     * and bursts: a resync is an update with old == new and must change no handler's state.
     */
    @Test
    void resyncsDuringRelistsChangeNothing() throws InterruptedException
    {
        resync = Duration.ofMillis(1);
        final long base = Long.getLong("ringwatch.seed", System.nanoTime());
        for (int run = 0; run < RUNS; run++)
        {
            runOnce(base + run);
        }
    }

    private void runOnce(final long seed) throws InterruptedException
    {
        final Random random = new Random(seed);
        final String where = "seed " + seed;
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).watcherQueueDepth(16).build());
        final StallingListerWatcher listerWatcher = new StallingListerWatcher(new RangeListerWatcher(engine, KEYS));
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final SharedInformer informer = new SharedInformer(listerWatcher, InformerConfig.builder()
            .name("model").handlerBufferCapacity(4).errorHandler(errors::add).build());
        final List<RecordingHandler> live = new ArrayList<>();
        final List<HandlerRegistration> registrations = new ArrayList<>();
        final List<RecordingHandler> all = new ArrayList<>();
        try
        {
            for (int i = 0; i < 10; i++)
            {
                engine.put(key(random), "init" + i);
            }
            add(informer, new RecordingHandler(), live, registrations, all);
            add(informer, new RecordingHandler().slow(seed), live, registrations, all);
            add(informer, new RecordingHandler().throwing(seed), live, registrations, all);
            informer.start();
            int stalls = 0;
            for (int step = 0; step < STEPS; step++)
            {
                final int op = random.nextInt(100);
                if (op < 40)
                {
                    engine.put(key(random), "v" + step);
                }
                else if (op < 55)
                {
                    engine.delete(KeyRange.key(key(random)));
                }
                else if (op < 60)
                {
                    final String from = key(random);
                    final String to = key(random);
                    if (from.compareTo(to) < 0)
                    {
                        engine.delete(KeyRange.range(from, to));
                    }
                }
                else if (op < 65)
                {
                    engine.put("/other/" + random.nextInt(5), "x");
                }
                else if (op < 75)
                {
                    burst(engine, random, step);
                }
                else if (op < 80)
                {
                    compact(engine);
                }
                else if (op < 88)
                {
                    listerWatcher.stallAndWait();
                    burst(engine, random, step);
                    for (int i = 0; i < 20; i++)
                    {
                        engine.put("/other/" + i, "x");
                    }
                    listerWatcher.release();
                    stalls++;
                }
                else if (op < 94)
                {
                    add(informer, new RecordingHandler(), live, registrations, all);
                }
                else if (live.size() > 1)
                {
                    final int victim = random.nextInt(live.size());
                    registrations.remove(victim).remove();
                    live.remove(victim);
                }
            }
            final WriteResult marker = engine.put("/m/~marker", "end");
            final Map<String, String> expected = InformerTestState.engine(engine, KEYS);
            assertTrue(Await.until(() -> informer.lastSyncRevision() >= marker.revision()), where);
            assertEquals(expected, InformerTestState.of(informer.lister().list()), where);
            for (int i = 0; i < live.size(); i++)
            {
                final RecordingHandler handler = live.get(i);
                final HandlerRegistration registration = registrations.get(i);
                assertTrue(Await.until(() -> registration.hasSynced() && expected.equals(handler.state())),
                    where + ": " + registration + " holds " + handler.sorted() + ", expected " + expected);
            }
            for (final RecordingHandler handler : all)
            {
                assertEquals(List.of(), handler.violations(), where);
            }
            assertTrue(stalls == 0 || informer.relistCount() > 0, where + ": a lapped watch relists");
            assertTrue(resync.isZero() || all.stream().anyMatch(h -> h.resyncs() > 0), where + ": no handler was resynced");
            assertTrue(errors.stream().allMatch(e -> e instanceof HandlerFailedException), where + ": " + errors);
        }
        finally
        {
            listerWatcher.release();
            informer.stop();
            engine.close();
        }
    }

    private void add(
        final SharedInformer informer,
        final RecordingHandler handler,
        final List<RecordingHandler> live,
        final List<HandlerRegistration> registrations,
        final List<RecordingHandler> all)
    {
        registrations.add(informer.addEventHandler(handler, resync));
        live.add(handler);
        all.add(handler);
    }

    private static void burst(final RingWatch engine, final Random random, final int step)
    {
        final int writes = 5 + random.nextInt(30);
        final List<CompletableFuture<WriteResult>> pending = new ArrayList<>(writes);
        for (int i = 0; i < writes; i++)
        {
            pending.add(engine.writeAsync(random.nextInt(4) == 0 ?
                Op.delete(KeyRange.key(key(random))) : Op.put(key(random), "b" + step + "." + i)));
        }
        pending.forEach(CompletableFuture::join);
    }

    private static void compact(final RingWatch engine)
    {
        try
        {
            engine.compact(engine.currentRevision());
        }
        catch (final CompactedException alreadyThere)
        {
            // Nothing was written since the last compaction.
        }
    }

    private static String key(final Random random)
    {
        return "/m/" + (char)('a' + random.nextInt(20));
    }
}
