package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.WriteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedInformerTest
{
    private static final KeyRange PODS = KeyRange.prefix("/pods/");

    private final RingWatch engine = RingWatch.open();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final SharedInformer informer =
        SharedInformer.forRange(engine, PODS, InformerConfig.builder().name("pods").errorHandler(errors::add).build());

    @AfterEach
    void close()
    {
        informer.stop();
        engine.close();
    }

    @Test
    void theFirstListIsDeliveredAsAddsThenEveryHandlerAndTheInformerAreSynced()
    {
        engine.put("/pods/a", "1");
        engine.put("/pods/b", "1");
        engine.put("/nodes/n", "1");
        final long listed = engine.currentRevision();
        final RecordingHandler handler = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(handler);
        assertFalse(informer.hasSynced());
        informer.start();

        assertTrue(Await.until(registration::hasSynced));
        assertTrue(informer.hasSynced());
        assertEquals(listed, informer.lastSyncRevision());
        assertEquals(InformerTestState.engine(engine, PODS), handler.state());
        assertEquals(List.of("add /pods/a=1", "add /pods/b=1"), handler.log());
    }

    @Test
    void changesAfterTheListArriveAsUpdatesAndDeletesCarryingTheObjectsTheHandlerWasGiven()
    {
        engine.put("/pods/a", "1");
        final RecordingHandler handler = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(registration::hasSynced));
        final CachedObject first = handler.seen("/pods/a");

        engine.put("/pods/a", "2");
        engine.put("/pods/c", "1");
        final WriteResult deleted = engine.delete(Keys.utf8("/pods/a"));
        assertTrue(Await.until(() -> informer.lastSyncRevision() >= deleted.revision() && handler.notifications() == 4));

        assertEquals(List.of("add /pods/a=1", "update /pods/a=2", "add /pods/c=1", "delete /pods/a"), handler.log());
        assertEquals(List.of(), handler.violations(), "old objects are the ones given before");
        assertEquals(1, first.version());
        assertEquals(InformerTestState.engine(engine, PODS), InformerTestState.of(informer.lister().list()));
        assertEquals(List.of(), errors);
    }

    @Test
    void theListerReadsTheCacheByKeyAndInFull()
    {
        engine.put("/pods/a", "1");
        engine.put("/pods/b", "2");
        informer.start();
        assertTrue(Await.until(informer::hasSynced));

        final CacheLister lister = informer.lister();
        assertEquals("2", lister.get("/pods/b").orElseThrow().valueAsString());
        assertEquals("1", lister.get(Keys.utf8("/pods/a")).orElseThrow().valueAsString());
        assertTrue(lister.get(ObjectKey.of("/pods/zz")).isEmpty());
        assertEquals(2, lister.size());
        assertEquals(List.of(ObjectKey.of("/pods/a"), ObjectKey.of("/pods/b")), lister.keys().stream().sorted().toList());
        assertEquals(InformerTestState.engine(engine, PODS), InformerTestState.of(lister.list()));
    }

    @Test
    void cachedValuesAreReadOnlyViewsThatNeverExposeTheCachedBytes()
    {
        engine.put("/pods/a", "abc");
        informer.start();
        assertTrue(Await.until(informer::hasSynced));
        final CachedObject obj = informer.lister().get("/pods/a").orElseThrow();

        final ByteBuffer view = obj.value();
        assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte)'x'));
        obj.valueBytes()[0] = 'x';
        obj.key().bytes()[0] = 'x';
        assertEquals("abc", obj.valueAsString());
        assertEquals("/pods/a", obj.key().asString());
        assertEquals('a', obj.valueBuffer().getByte(0));
        assertEquals(engine.get("/pods/a").orElseThrow(), obj.toKeyValue());
        assertSame(obj, informer.lister().get("/pods/a").orElseThrow(), "reads share the cached object, no copy");
    }

    @Test
    void aHandlerAddedLaterIsToldAboutEveryCachedObjectFirst()
    {
        engine.put("/pods/a", "1");
        engine.put("/pods/b", "1");
        informer.start();
        assertTrue(Await.until(informer::hasSynced));

        final RecordingHandler late = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(late);
        assertTrue(Await.until(registration::hasSynced));
        final WriteResult put = engine.put("/pods/c", "1");
        assertTrue(Await.until(() -> late.notifications() == 3));

        assertEquals(Map.of("/pods/a", "1", "/pods/b", "1", "/pods/c", "1"), values(late));
        assertEquals(List.of(), late.violations());
        // The reflector records the revision after the batch whose changes it handed to the handlers.
        assertTrue(Await.until(() -> informer.lastSyncRevision() >= put.revision()));
    }

    @Test
    void aRemovedHandlerIsNotCalledAgainWhileOthersCarryOn()
    {
        informer.start();
        final RecordingHandler removed = new RecordingHandler();
        final RecordingHandler kept = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(removed);
        informer.addEventHandler(kept);
        engine.put("/pods/a", "1");
        assertTrue(Await.until(() -> removed.notifications() == 1 && kept.notifications() == 1));

        registration.remove();
        assertTrue(registration.isRemoved());
        engine.put("/pods/a", "2");
        assertTrue(Await.until(() -> kept.notifications() == 2));
        registration.remove();
        engine.put("/pods/a", "3");
        assertTrue(Await.until(() -> kept.notifications() == 3));

        assertEquals(1, removed.notifications());
    }

    @Test
    void anInformerWhoseEngineClosesStopsAndSaysSo()
    {
        final RecordingHandler handler = new RecordingHandler();
        informer.addEventHandler(handler);
        informer.start();
        engine.put("/pods/a", "1");
        assertTrue(Await.until(() -> handler.notifications() == 1));
        assertTrue(informer.isRunning());

        engine.close();
        assertTrue(Await.until(() -> !informer.isRunning()));

        assertTrue(errors.stream().anyMatch(e -> e instanceof InformerStoppedException), errors.toString());
        assertThrows(InformerStoppedException.class, () -> informer.addEventHandler(new RecordingHandler()));
        assertEquals("1", informer.lister().get("/pods/a").orElseThrow().valueAsString(), "the cache stays readable");
    }

    private static Map<String, String> values(final RecordingHandler handler)
    {
        final Map<String, String> values = new java.util.TreeMap<>();
        handler.state().forEach((k, v) -> values.put(k, v.substring(0, v.indexOf(' '))));
        return values;
    }
}
