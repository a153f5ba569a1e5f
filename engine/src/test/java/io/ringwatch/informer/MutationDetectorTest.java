package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MutationDetectorTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/k/");

    private final RingWatch engine = RingWatch.open();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private SharedInformer informer;

    @AfterEach
    void close()
    {
        informer.stop();
        engine.close();
    }

    @Test
    void aHandlerThatWritesIntoACachedValueIsFoundOnDemandAndReportedOnceWithTheKey()
    {
        informer = informer(Duration.ofHours(1));
        informer.addEventHandler(new ResourceEventHandler()
        {
            @Override
            public void onAdd(final CachedObject obj)
            {
                if (obj.key().asString().equals("/k/victim"))
                {
                    ((MutableDirectBuffer)obj.valueBuffer()).putByte(0, (byte)'X');
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
        engine.put("/k/fine", "v");
        engine.put("/k/victim", "v");
        informer.start();
        assertTrue(Await.until(() -> informer.lister().get("/k/victim").map(o -> o.valueAsString().equals("X")).orElse(false)));

        assertEquals(List.of(ObjectKey.of("/k/victim")), informer.checkForMutations());
        assertEquals(List.of(ObjectKey.of("/k/victim")), informer.checkForMutations(), "still mutated");
        assertEquals(1, errors.size(), "reported once: " + errors);
        final CacheMutationException reported = (CacheMutationException)errors.get(0);
        assertEquals(ObjectKey.of("/k/victim"), reported.key());
        assertEquals(engine.get("/k/victim").orElseThrow().modRevision(), reported.modRevision());
    }

    @Test
    void thePeriodicCheckFindsAMutationWithoutBeingAsked()
    {
        informer = informer(Duration.ofMillis(10));
        engine.put("/k/a", "v");
        informer.start();
        assertTrue(Await.until(informer::hasSynced));
        final CachedObject obj = informer.lister().get("/k/a").orElseThrow();
        ((MutableDirectBuffer)obj.valueBuffer()).putByte(0, (byte)'X');

        assertTrue(Await.until(() -> !errors.isEmpty()));
        assertEquals(ObjectKey.of("/k/a"), ((CacheMutationException)errors.get(0)).key());
    }

    @Test
    void untouchedObjectsAreNeverReportedAndDetectionOffChecksNothing()
    {
        informer = informer(Duration.ofMillis(1));
        final SharedInformer undetected = SharedInformer.forRange(engine, KEYS);
        try
        {
            for (int i = 0; i < 20; i++)
            {
                engine.put("/k/" + i, "v" + i);
                engine.put("/k/" + i, "w" + i);
            }
            informer.start();
            undetected.start();
            assertTrue(Await.until(() -> informer.lister().size() == 20 && undetected.lister().size() == 20));
            final CachedObject obj = undetected.lister().get("/k/0").orElseThrow();
            ((MutableDirectBuffer)obj.valueBuffer()).putByte(0, (byte)'X');

            assertEquals(List.of(), informer.checkForMutations());
            assertEquals(List.of(), undetected.checkForMutations());
            assertEquals(List.of(), errors);
        }
        finally
        {
            undetected.stop();
        }
    }

    private SharedInformer informer(final Duration checkInterval)
    {
        return SharedInformer.forRange(engine, KEYS,
            InformerConfig.builder().detectMutations(checkInterval).errorHandler(errors::add).build());
    }
}
