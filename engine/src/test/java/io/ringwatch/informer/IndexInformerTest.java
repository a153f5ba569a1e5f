package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.secondary.IndexFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An informer of one secondary index value (a field selector): the pods of one node. A pod that
 * moves to another node leaves the cache with a delete; one that moves in arrives as an add.
 */
class IndexInformerTest
{
    /** Values look like "node=n1;phase=Running": the index holds the node. */
    private static final IndexFunction BY_NODE = IndexFunction.ofStrings(value ->
    {
        final String text = new String(value, StandardCharsets.UTF_8);
        return List.of(text.substring("node=".length(), text.indexOf(';')));
    });

    private final RingWatch engine = RingWatch.open();
    private SharedInformer informer;

    @AfterEach
    void close()
    {
        if (informer != null)
        {
            informer.stop();
        }
        engine.close();
    }

    @Test
    void podsMovingOnAndOffTheNodeAreAddedAndDeleted()
    {
        engine.addIndex("node", BY_NODE);
        engine.put("/pods/a", "node=n1;phase=Pending");
        engine.put("/pods/b", "node=n2;phase=Pending");
        informer = SharedInformer.forIndex(engine, "node", "n1", InformerConfig.defaults());
        final RecordingHandler handler = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(handler);
        informer.start();
        assertTrue(Await.until(registration::hasSynced));
        assertEquals(Set.of("/pods/a"), handler.state().keySet());

        engine.put("/pods/a", "node=n1;phase=Running");
        engine.put("/pods/b", "node=n1;phase=Running");
        final long moved = engine.put("/pods/a", "node=n3;phase=Running").revision();
        assertTrue(Await.until(() -> informer.lastSyncRevision() >= moved && handler.notifications() == 4));

        assertEquals(List.of("add /pods/a=node=n1;phase=Pending", "update /pods/a=node=n1;phase=Running",
            "add /pods/b=node=n1;phase=Running", "delete /pods/a"), handler.log());
        assertEquals(Set.of("/pods/b"), handler.state().keySet());
        assertEquals(List.of("/pods/b"), informer.lister().keys().stream().map(ObjectKey::asString).toList());
        assertEquals(List.of(), handler.violations());
    }
}
