package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cancelled watch makes the informer list again and tell handlers only what really changed.
 * The engine's window holds 16 events, so a watch held still while more are written is lapped.
 */
class RelistTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/k/");

    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).watcherQueueDepth(16).build());
    private final StallingListerWatcher listerWatcher = new StallingListerWatcher(new RangeListerWatcher(engine, KEYS));
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final SharedInformer informer = new SharedInformer(listerWatcher, InformerConfig.builder().errorHandler(errors::add).build());

    @AfterEach
    void close()
    {
        listerWatcher.release();
        informer.stop();
        engine.close();
    }

    @Test
    void aLappedWatchRelistsAndDeliversOnlyTheRealDifferences() throws InterruptedException
    {
        engine.put("/k/changed", "1");
        engine.put("/k/deleted", "1");
        engine.put("/k/same", "1");
        engine.put("/k/recreated", "1");
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(() -> handler.notifications() == 4));
        handler.clearLog();
        final CachedObject sameBefore = informer.lister().get("/k/same").orElseThrow();

        listerWatcher.stallAndWait();
        engine.put("/k/changed", "2");
        engine.put("/k/changed", "3");
        engine.delete(Keys.utf8("/k/deleted"));
        engine.delete(Keys.utf8("/k/recreated"));
        engine.put("/k/recreated", "2");
        engine.put("/k/added", "1");
        for (int i = 0; i < 40; i++)
        {
            engine.put("/elsewhere/" + i, "x");
        }
        final WriteResult last = engine.put("/elsewhere/last", "x");
        listerWatcher.release();

        assertTrue(Await.until(() -> informer.lastSyncRevision() >= last.revision() && handler.log().size() == 5));
        assertEquals(1, informer.relistCount());
        assertEquals(List.of(
            "add /k/added=1",
            "update /k/changed=3",
            "delete /k/recreated",
            "add /k/recreated=2",
            "delete /k/deleted"), handler.log());
        assertEquals(List.of(), handler.violations());
        assertEquals(InformerTestState.engine(engine, KEYS), handler.state());
        assertEquals(InformerTestState.engine(engine, KEYS), InformerTestState.of(informer.lister().list()));
        assertTrue(informer.lister().get("/k/same").orElseThrow() == sameBefore, "an unchanged object is kept as it was");
        assertEquals(List.of(), errors);
    }

    @Test
    void aWatchRefusedAsCompactedRelistsAgainAndConverges()
    {
        engine.put("/k/a", "1");
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        listerWatcher.onceBetweenListAndWatch(listed ->
        {
            engine.put("/k/a", "2");
            engine.put("/k/b", "1");
            engine.compact(engine.currentRevision());
        });
        informer.start();

        assertTrue(Await.until(() -> handler.notifications() == 3));
        assertEquals(InformerTestState.engine(engine, KEYS), handler.state());
        assertEquals(2, listerWatcher.lists(), "the first watch was refused as compacted, so it listed twice");
        assertEquals(1, informer.relistCount());
        assertEquals(List.of("add /k/a=1", "update /k/a=2", "add /k/b=1"), handler.log());
        assertEquals(List.of(), handler.violations());
        final WriteResult after = engine.put("/k/c", "1");
        assertTrue(Await.until(() -> informer.lastSyncRevision() >= after.revision()), "the new watch runs");
    }

    @Test
    void aListOlderThanTheCacheIsRefusedAndListedAgainSoTheCacheNeverGoesBack() throws InterruptedException
    {
        engine.put("/k/a", "1");
        final RangeResult old = engine.range(KEYS, 0);
        engine.put("/k/a", "2");
        engine.put("/k/b", "1");
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(() -> handler.notifications() == 2));

        listerWatcher.serveOnce(old);
        listerWatcher.stallAndWait();
        engine.put("/k/a", "3");
        for (int i = 0; i < 40; i++)
        {
            engine.put("/elsewhere/" + i, "x");
        }
        listerWatcher.release();

        assertTrue(Await.until(() -> handler.notifications() == 3));
        assertEquals(3, listerWatcher.lists(), "first list, the stale one refused, the one applied");
        assertEquals(List.of("add /k/a=2", "add /k/b=1", "update /k/a=3"), handler.log(), "nothing rolled back to revision 1");
        assertEquals(List.of(), handler.violations());
        assertEquals(InformerTestState.engine(engine, KEYS), InformerTestState.of(informer.lister().list()));
    }
}
