package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probes of client-go's known informer failures (relist after compaction or a lap with deletes in
 * between, handlers that stop or write, stop racing start, engine close during a relist, many
 * informers on one prefix), each against a reference the test builds. The engine's window holds
 * 16 events, so a watch held still while more are written is lapped.
 */
class InformerFailureProbeTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/k/");

    private final RingWatch engine = RingWatch.open(
        RingWatchConfig.builder().name("probe").windowCapacity(16, 16).watcherQueueDepth(16).build());
    private final StallingListerWatcher listerWatcher = new StallingListerWatcher(new RangeListerWatcher(engine, KEYS));
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<SharedInformer> informers = new ArrayList<>();

    @AfterEach
    void close()
    {
        listerWatcher.release();
        informers.forEach(SharedInformer::stop);
        engine.close();
    }

    private SharedInformer informer(final ListerWatcher lw, final InformerConfig.Builder config)
    {
        final SharedInformer informer = new SharedInformer(lw, config.errorHandler(errors::add).build());
        informers.add(informer);
        return informer;
    }

    /**
     * A key deleted while the watch is compacted away and another deleted between the relist's
     * list and its watch are each deleted exactly once; no add or update is lost or repeated.
     */
    @Test
    void keysDeletedAroundACompactionRelistAreDeletedExactlyOnce() throws InterruptedException
    {
        engine.put("/k/gone-before-list", "1");
        engine.put("/k/gone-after-list", "1");
        engine.put("/k/kept", "1");
        final SharedInformer informer = informer(listerWatcher, InformerConfig.builder());
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(() -> handler.notifications() == 3));
        handler.clearLog();

        listerWatcher.stallAndWait();
        engine.delete(Keys.utf8("/k/gone-before-list"));
        engine.put("/k/kept", "2");
        engine.put("/k/new", "1");
        for (int i = 0; i < 40; i++)
        {
            engine.put("/elsewhere/" + i, "x");
        }
        engine.compact(engine.currentRevision());
        listerWatcher.onceBetweenListAndWatch(listed ->
        {
            engine.delete(Keys.utf8("/k/gone-after-list"));
            engine.put("/k/kept", "3");
        });
        final WriteResult last = engine.put("/k/last", "1");
        listerWatcher.release();

        assertTrue(Await.until(() -> informer.lastSyncRevision() >= last.revision() && handler.log().size() == 6),
            () -> handler.log() + " sync " + informer.lastSyncRevision() + " last " + last.revision() + " now " + engine.currentRevision()
                + " relists " + informer.relistCount() + " lists " + listerWatcher.lists() + " errors " + errors);
        assertEquals(1, informer.relistCount());
        assertEquals(List.of(
            "update /k/kept=2",
            "add /k/last=1",
            "add /k/new=1",
            "delete /k/gone-before-list",
            "delete /k/gone-after-list",
            "update /k/kept=3"), handler.log(), "the relist's differences in key order, deletes last, then the new watch");
        assertMatchesEngine(informer, handler);
        assertEquals(List.of(), errors);
    }

    /**
     * A handler that stops its own informer: stop() returns on the handler's thread (it never
     * waits for itself, even with a stop timeout beyond the test), the informer and its threads end.
     */
    @Test
    void aHandlerThatStopsItsOwnInformerEndsItWithoutWaitingForItself()
    {
        final SharedInformer[] self = new SharedInformer[1];
        final CountDownLatch returned = new CountDownLatch(1);
        self[0] = informer(new RangeListerWatcher(engine, KEYS), InformerConfig.builder().name("selfstop").stopTimeout(Duration.ofMinutes(10)));
        final RecordingHandler other = new RecordingHandler();
        self[0].addEventHandler(new ResourceEventHandler()
        {
            @Override
            public void onAdd(final CachedObject obj)
            {
                if (obj.key().asString().equals("/k/stop"))
                {
                    self[0].stop();
                    returned.countDown();
                }
            }

            @Override
            public void onUpdate(final CachedObject oldObj, final CachedObject newObj)
            {
            }

            @Override
            public void onDelete(final CachedObject obj)
            {
            }
        });
        self[0].addEventHandler(other);
        self[0].start();
        engine.put("/k/a", "1");
        engine.put("/k/stop", "1");

        assertTrue(Await.until(() -> returned.getCount() == 0), "stop() returned on the handler's thread");
        assertFalse(self[0].isRunning());
        assertTrue(Await.until(() -> threads("probe-informer-selfstop") == 0), "every informer thread ended");
        assertEquals(List.of(), errors);
        assertEquals(List.of(), other.violations());
    }

    /**
     * A handler that writes to the engine (each add of /k/n puts /k/n+1) sees its own writes come
     * back; the cache and the handler end equal to the engine.
     */
    @Test
    void aHandlerThatWritesToTheEngineSeesItsWritesAndConverges()
    {
        final SharedInformer informer = informer(new RangeListerWatcher(engine, KEYS), InformerConfig.builder());
        final RecordingHandler recorder = new RecordingHandler();
        informer.addEventHandler(new ResourceEventHandler()
        {
            @Override
            public void onAdd(final CachedObject obj)
            {
                final int n = Integer.parseInt(obj.key().asString().substring(3));
                if (n < 50)
                {
                    engine.put("/k/" + (n + 1), "v");
                }
            }

            @Override
            public void onUpdate(final CachedObject oldObj, final CachedObject newObj)
            {
            }

            @Override
            public void onDelete(final CachedObject obj)
            {
            }
        });
        informer.addEventHandler(recorder);
        informer.start();
        engine.put("/k/0", "v");

        assertTrue(Await.until(() -> recorder.notifications() == 51), recorder.log().toString());
        assertMatchesEngine(informer, recorder);
        assertEquals(List.of(), errors);
    }

    /**
     * The engine closes between a relist's list and its watch: the informer stops, says why with
     * an {@link InformerStoppedException}, and its cache holds the relist's state.
     */
    @Test
    void anEngineClosedDuringARelistStopsTheInformerWithATypedError() throws InterruptedException
    {
        engine.put("/k/a", "1");
        final SharedInformer informer = informer(listerWatcher, InformerConfig.builder().name("closing"));
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(() -> handler.notifications() == 1));

        listerWatcher.stallAndWait();
        engine.put("/k/a", "2");
        for (int i = 0; i < 40; i++)
        {
            engine.put("/elsewhere/" + i, "x");
        }
        listerWatcher.onceBetweenListAndWatch(listed -> engine.close());
        listerWatcher.release();

        assertTrue(Await.until(() -> !informer.isRunning()));
        assertTrue(Await.until(() -> threads("probe-informer-closing") == 0), "every informer thread ended");
        assertEquals(1, errors.size(), errors.toString());
        assertInstanceOf(InformerStoppedException.class, errors.get(0));
        assertEquals(null, errors.get(0).getCause(), "the engine closed, nothing unexpected: " + errors.get(0));
        assertEquals("2", informer.lister().get("/k/a").orElseThrow().valueAsString());
        assertEquals(List.of("add /k/a=1", "update /k/a=2"), handler.log());
    }

    /**
     * stop() racing start() from another thread, 200 rounds: whichever wins, the informer ends
     * stopped, no thread of it is left, and nothing but a refused start is reported.
     */
    @Test
    void stopRacingStartLeavesNoThreadBehind() throws InterruptedException
    {
        engine.put("/k/a", "1");
        for (int round = 0; round < 200; round++)
        {
            final SharedInformer informer = informer(new RangeListerWatcher(engine, KEYS), InformerConfig.builder().name("race"));
            informer.addEventHandler(new RecordingHandler());
            final CountDownLatch go = new CountDownLatch(1);
            final AtomicBoolean refused = new AtomicBoolean();
            final Thread starter = new Thread(() ->
            {
                awaitQuietly(go);
                try
                {
                    informer.start();
                }
                catch (final InformerStoppedException e)
                {
                    refused.set(true);
                }
            });
            starter.start();
            go.countDown();
            informer.stop();
            starter.join();
            assertFalse(informer.isRunning(), "round " + round);
        }
        assertTrue(Await.until(() -> threads("probe-informer-race") == 0), "every informer thread ended");
        assertEquals(List.of(), errors);
    }

    /**
     * Eight informers on one prefix while a writer laps their watches again and again: every
     * cache and every handler ends equal to the engine, with no contract breach.
     */
    @Test
    void manyInformersOnOnePrefixAllConvergeThroughRelists()
    {
        final List<RecordingHandler> handlers = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            final SharedInformer informer = informer(new RangeListerWatcher(engine, KEYS), InformerConfig.builder().name("many" + i));
            final RecordingHandler handler = new RecordingHandler();
            handlers.add(handler);
            informer.addEventHandler(handler);
            informer.start();
        }
        for (int i = 0; i < 2_000; i++)
        {
            if (i % 7 == 3)
            {
                engine.delete(Keys.utf8("/k/" + (i % 50)));
            }
            else
            {
                engine.put("/k/" + (i % 50), "v" + i);
            }
        }
        final WriteResult last = engine.put("/k/last", "x");

        for (int i = 0; i < informers.size(); i++)
        {
            final SharedInformer informer = informers.get(i);
            final RecordingHandler handler = handlers.get(i);
            assertTrue(Await.until(() -> informer.lastSyncRevision() >= last.revision()
                && handler.state().equals(InformerTestState.engine(engine, KEYS))), "informer " + i);
            assertMatchesEngine(informer, handler);
        }
        assertEquals(List.of(), errors);
    }

    /**
     * stop() while the informer's first list is held inside the engine call: stop() returns after
     * its timeout, and the list that completes afterwards changes nothing (the cache stays as
     * stop() left it, never synced, no handler called, no watch left open).
     */
    @Test
    void aListThatCompletesAfterStopReturnedChangesNothing() throws InterruptedException
    {
        engine.put("/k/a", "1");
        final CountDownLatch listing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final RangeListerWatcher real = new RangeListerWatcher(engine, KEYS);
        final ListerWatcher held = withList(real, () ->
        {
            final RangeResult result = real.list();
            listing.countDown();
            awaitQuietly(release);
            return result;
        });
        final SharedInformer informer = informer(held, InformerConfig.builder().name("heldlist").stopTimeout(Duration.ofMillis(50)));
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        assertTrue(listing.await(Await.PATIENCE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));

        informer.stop();
        release.countDown();

        assertTrue(Await.until(() -> threads("probe-informer-heldlist") == 0), "every informer thread ended");
        assertFalse(informer.hasSynced(), "a list that completed after stop() returned was applied");
        assertEquals(List.of(), informer.lister().list().stream().map(o -> o.key().asString()).toList());
        assertEquals(List.of(), handler.log());
        assertEquals(List.of(), errors);
    }

    /**
     * A handler blocked in its call when stop() is called: stop() returns after its timeout, and
     * once the handler returns it is called no more.
     */
    @Test
    void aHandlerBlockedAtStopIsCalledNoMoreOnceItReturns()
    {
        engine.put("/k/a", "1");
        engine.put("/k/b", "1");
        final SharedInformer informer = informer(new RangeListerWatcher(engine, KEYS),
            InformerConfig.builder().name("blocked").stopTimeout(Duration.ofMillis(50)));
        final RecordingHandler blocked = new RecordingHandler().closed();
        informer.addEventHandler(blocked);
        informer.start();
        assertTrue(Await.until(() -> threads("probe-informer-blocked-handler") == 1 && informer.hasSynced()));

        informer.stop();
        blocked.open();

        assertTrue(Await.until(() -> threads("probe-informer-blocked") == 0), "every informer thread ended");
        assertTrue(blocked.log().size() <= 1, "called after stop: " + blocked.log());
        assertEquals(List.of(), errors);
    }

    /**
     * More changes than the window holds between the list and its watch: the watch is refused as
     * unavailable (not compacted), the informer lists again, and each change is told once.
     */
    @Test
    void aWatchStartedOutsideTheWindowRelistsAndConverges()
    {
        engine.put("/k/a", "1");
        engine.put("/k/gone", "1");
        final SharedInformer informer = informer(listerWatcher, InformerConfig.builder());
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        listerWatcher.onceBetweenListAndWatch(listed ->
        {
            engine.delete(Keys.utf8("/k/gone"));
            for (int i = 0; i < 40; i++)
            {
                engine.put("/k/a", "v" + i);
            }
        });
        informer.start();
        final long now = engine.currentRevision();

        assertTrue(Await.until(() -> informer.lastSyncRevision() >= now && handler.log().size() == 4), handler.log().toString());
        assertEquals(List.of("add /k/a=1", "add /k/gone=1", "update /k/a=v39", "delete /k/gone"), handler.log());
        assertEquals(1, informer.relistCount());
        assertEquals(InformerTestState.engine(engine, KEYS), handler.state());
        assertEquals(List.of(), handler.violations());
        assertEquals(List.of(), errors);
    }

    /**
     * The engine closes inside the informer's list (the list call itself fails): the informer
     * stops with one {@link InformerStoppedException} saying the engine closed.
     */
    @Test
    void anEngineClosedDuringTheListStopsTheInformerWithATypedError()
    {
        final RangeListerWatcher real = new RangeListerWatcher(engine, KEYS);
        final ListerWatcher closing = withList(real, () ->
        {
            engine.close();
            return real.list();
        });
        final SharedInformer informer = informer(closing, InformerConfig.builder().name("closelist"));
        informer.start();

        assertTrue(Await.until(() -> !informer.isRunning() && threads("probe-informer-closelist") == 0));
        assertEquals(1, errors.size(), errors.toString());
        assertInstanceOf(InformerStoppedException.class, errors.get(0));
        assertEquals(null, errors.get(0).getCause(), errors.get(0).toString());
    }

    /**
     * Handlers added while the informer stops because its engine closed (its list fails at
     * once), 2,000 rounds: every handler either is refused or has its thread end; none is left
     * parked for ever.
     */
    @Test
    void aHandlerAddedAsTheEngineClosesIsNeverLeftRunning()
    {
        final ListerWatcher closed = new ListerWatcher()
        {
            @Override
            public RangeResult list()
            {
                throw new EngineClosedException("closed for the test");
            }

            @Override
            public PullWatcher watch(final long fromRevision)
            {
                throw new EngineClosedException("closed for the test");
            }

            @Override
            public String engineName()
            {
                return "probe";
            }
        };
        for (int round = 0; round < 2_000; round++)
        {
            final SharedInformer informer = new SharedInformer(closed, InformerConfig.builder().name("addclose").errorHandler(e -> { }).build());
            informer.start();
            try
            {
                while (true)
                {
                    informer.addEventHandler(new RecordingHandler());
                }
            }
            catch (final InformerStoppedException expected)
            {
                // the informer saw its engine closed
            }
        }
        assertTrue(Await.until(() -> threads("probe-informer-addclose") == 0),
            () -> threads("probe-informer-addclose") + " handler threads left running");
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static long threads(final String prefix)
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
    }

    /** The handler's view and the informer's cache both equal the engine's keys, and the handler saw its contract kept. */
    private void assertMatchesEngine(final SharedInformer informer, final RecordingHandler handler)
    {
        assertEquals(InformerTestState.engine(engine, KEYS), handler.state());
        assertEquals(InformerTestState.engine(engine, KEYS), InformerTestState.of(informer.lister().list()));
        assertEquals(List.of(), handler.violations());
    }

    /** {@code real} with its list replaced by {@code list}; its watch, selection and name stay real's. */
    private static ListerWatcher withList(final ListerWatcher real, final Supplier<RangeResult> list)
    {
        return new ListerWatcher()
        {
            @Override
            public RangeResult list()
            {
                return list.get();
            }

            @Override
            public PullWatcher watch(final long fromRevision)
            {
                return real.watch(fromRevision);
            }

            @Override
            public boolean selects(final WatchEvent put)
            {
                return real.selects(put);
            }

            @Override
            public String engineName()
            {
                return real.engineName();
            }
        };
    }
}
