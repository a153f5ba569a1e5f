package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.DuplicateIndexException;
import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.UnknownIndexException;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Secondary indexes through the public API: lookups, field-selector watch semantics, removal,
 * functions that throw, and bad input.
 */
class SecondaryIndexTest
{
    private RingWatch engine;

    @BeforeEach
    void open()
    {
        engine = RingWatch.open();
    }

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void byIndexFindsTheKeysOfAnIndexValueAtTheCurrentRevision()
    {
        engine.put("pods/1", "a|x|1");
        engine.put("pods/2", "b|x,y|2");
        engine.put("pods/3", "a||3");
        engine.addIndex("namespace", PodValues.NAMESPACE);
        engine.addIndex("label", PodValues.LABEL);
        engine.put("pods/4", "a|y|4");
        engine.put("pods/3", "b||5");

        final RangeResult inA = engine.byIndex("namespace", "a");
        assertEquals(List.of("pods/1", "pods/4"), keys(inA.kvs()));
        assertEquals(engine.currentRevision(), inA.revision());
        assertEquals(List.of("pods/1", "pods/2"), keys(engine.byIndex("label", "x").kvs()));
        assertEquals(List.of(), engine.byIndex("label", "nothing").kvs());
        assertEquals(List.of("a", "b"), strings(engine.indexValues("namespace")));
        assertEquals(Set.of("label", "namespace"), engine.indexNames());
    }

    @Test
    void watchByIndexSeesLeavingKeysAsDeletesAndArrivingKeysAsAdds() throws Exception
    {
        engine.addIndex("namespace", PodValues.NAMESPACE);
        final CollectingListener listener = new CollectingListener();
        final Watcher watcher = engine.watch(WatchRequest.byIndex("namespace", "a").withPrevKv(), listener);
        engine.put("p", "a||1");
        engine.put("p", "a||2");
        engine.put("p", "b||3");
        engine.put("other", "b||4");
        engine.put("p", "a||5");
        engine.delete("p".getBytes(StandardCharsets.UTF_8));

        final List<Event> events = listener.awaitEvents(5);
        assertEquals(List.of("PUT p=a||1 prev=none", "PUT p=a||2 prev=a||1", "DELETE p= prev=a||2",
            "PUT p=a||5 prev=none", "DELETE p= prev=a||5"), describe(events));
        assertEquals(3, events.get(2).kv().modRevision());
        watcher.cancel();
    }

    @Test
    void listAndWatchByIndexContinuesAfterTheSnapshotWithNoGap()
    {
        engine.addIndex("namespace", PodValues.NAMESPACE);
        engine.put("p1", "a||1");
        engine.put("p2", "b||2");
        final CollectingListener listener = new CollectingListener();
        final var listWatch = engine.listAndWatch(WatchRequest.byIndex("namespace", "a"), listener);
        engine.put("p2", "a||3");

        assertEquals(List.of("p1"), keys(listWatch.snapshot().kvs()));
        assertEquals(List.of("PUT p2=a||3 prev=none"), describe(listener.awaitEvents(1)));
        listWatch.watcher().cancel();
    }

    @Test
    void aRemovedIndexIsGoneAndItsNameCanBeReused()
    {
        engine.put("p", "a|x|1");
        engine.addIndex("namespace", PodValues.NAMESPACE);
        engine.removeIndex("namespace");

        assertThrows(UnknownIndexException.class, () -> engine.byIndex("namespace", "a"));
        assertThrows(UnknownIndexException.class, () -> engine.indexValues("namespace"));
        assertThrows(UnknownIndexException.class, () -> engine.removeIndex("namespace"));
        assertEquals(Set.of(), engine.indexNames());
        engine.put("q", "a||2");

        engine.addIndex("namespace", PodValues.LABEL);
        assertEquals(List.of("p"), keys(engine.byIndex("namespace", "x").kvs()));
    }

    @Test
    void aFunctionThrowingOnTheCurrentStateFailsRegistrationAndAddsNothing()
    {
        engine.put("p", "a||1");
        engine.put("bad", "boom");
        final IndexFunction strict = (value, offset, length, sink) ->
        {
            if (PodValues.string(value, offset, length).startsWith("boom"))
            {
                throw new IllegalStateException("cannot parse");
            }
            PodValues.NAMESPACE.indexValues(value, offset, length, sink);
        };

        final IndexFunctionException e = assertThrows(IndexFunctionException.class, () -> engine.addIndex("strict", strict));
        assertTrue(e.getMessage().contains("strict"), e.getMessage());
        assertEquals(Set.of(), engine.indexNames());
        engine.delete("bad".getBytes(StandardCharsets.UTF_8));
        engine.addIndex("strict", strict);
        assertEquals(List.of("p"), keys(engine.byIndex("strict", "a").kvs()));
    }

    @Test
    void aWriteWhoseNewValueTheFunctionRejectsFailsAndChangesNothing()
    {
        engine.addIndex("strict", (value, offset, length, sink) ->
        {
            if (PodValues.string(value, offset, length).startsWith("boom"))
            {
                throw new IllegalStateException("cannot parse");
            }
            PodValues.NAMESPACE.indexValues(value, offset, length, sink);
        });
        engine.put("p", "a||1");
        final long before = engine.currentRevision();

        assertThrows(IndexFunctionException.class, () -> engine.put("p", "boom"));
        assertThrows(IndexFunctionException.class, () -> engine.txn(Txn.of(List.of(),
            List.of(Op.delete("p"), Op.put("q", "a||2"), Op.put("r", "boom")), List.of())));

        assertEquals(before, engine.currentRevision());
        assertEquals("a||1", engine.get("p").orElseThrow().valueAsString());
        assertFalse(engine.get("q").isPresent());
        assertEquals(List.of("p"), keys(engine.byIndex("strict", "a").kvs()));
        engine.put("q", "a||3");
        assertEquals(List.of("p", "q"), keys(engine.byIndex("strict", "a").kvs()));
    }

    @Test
    void anIndexWhoseFunctionStopsAcceptingAnOldValueIsDisabledNotCorrupted()
    {
        final AtomicBoolean rejectOld = new AtomicBoolean();
        engine.addIndex("fickle", (value, offset, length, sink) ->
        {
            if (rejectOld.get() && PodValues.string(value, offset, length).startsWith("old"))
            {
                throw new IllegalStateException("changed its mind");
            }
            sink.accept(value, offset, 1);
        });
        engine.put("p", "old");
        rejectOld.set(true);

        engine.put("p", "new");

        assertEquals("new", engine.get("p").orElseThrow().valueAsString());
        final IndexFunctionException e = assertThrows(IndexFunctionException.class, () -> engine.byIndex("fickle", "n"));
        assertTrue(e.getMessage().contains("disabled"), e.getMessage());
        engine.removeIndex("fickle");
        assertEquals(Set.of(), engine.indexNames());
    }

    /**
     * A function that derives other index values from a value it has seen before (no throw) left
     * the key filed under the first ones: the writer removed the key from the values the function
     * gave now, which were never filed. Found on main 817b6a0: byIndex("fickle", "v1") returned
     * p=v2 (the key under an index value its value never had since). The writer now sees the
     * missing entry and disables the index, as for a function that rejects an old value.
     */
    @Test
    void anIndexWhoseFunctionDerivesOtherValuesFromAnOldValueIsDisabledNotCorrupted()
    {
        final java.util.Map<String, Integer> calls = new java.util.concurrent.ConcurrentHashMap<>();
        engine.addIndex("fickle", (value, offset, length, sink) ->
        {
            final String seen = PodValues.string(value, offset, length);
            // Only the writer calls it here: the value itself the first time, "x" after.
            if (calls.merge(seen, 1, Integer::sum) == 1)
            {
                sink.accept(value, offset, length);
            }
            else
            {
                sink.accept(new org.agrona.concurrent.UnsafeBuffer("x".getBytes(StandardCharsets.UTF_8)), 0, 1);
            }
        });
        engine.put("p", "v1");
        assertEquals(List.of("p"), keys(engine.byIndex("fickle", "v1").kvs()));

        engine.put("p", "v2");

        assertEquals("v2", engine.get("p").orElseThrow().valueAsString());
        final IndexFunctionException e = assertThrows(IndexFunctionException.class, () -> engine.byIndex("fickle", "v1"));
        assertTrue(e.getMessage().contains("disabled"), e.getMessage());
        assertEquals(3, engine.put("p", "v3").revision(), "the writer goes on");
        engine.removeIndex("fickle");
        assertEquals(Set.of(), engine.indexNames());
    }

    @Test
    void aWatcherWhoseFunctionThrowsWhileRoutingIsCancelledWithTheCause()
    {
        final IndexFunction throwsWhenDispatching = (value, offset, length, sink) ->
        {
            if (Thread.currentThread().getName().startsWith("ringwatch-dispatcher"))
            {
                throw new IllegalStateException("not here");
            }
            PodValues.NAMESPACE.indexValues(value, offset, length, sink);
        };
        engine.addIndex("namespace", throwsWhenDispatching);
        final CollectingListener listener = new CollectingListener();
        engine.watch(WatchRequest.byIndex("namespace", "a"), listener);
        engine.put("p", "a||1");

        final WatchCancellation cancellation = listener.awaitCancellation();
        assertEquals(CancelReason.INDEX_FUNCTION_FAILED, cancellation.reason());
        assertTrue(cancellation.cause() instanceof IndexFunctionException, String.valueOf(cancellation.cause()));
    }

    @Test
    void badInputIsRefusedWithTypedErrorsAndChangesNothing()
    {
        engine.addIndex("namespace", PodValues.NAMESPACE);

        assertThrows(DuplicateIndexException.class, () -> engine.addIndex("namespace", PodValues.LABEL));
        assertThrows(InvalidRequestException.class, () -> engine.addIndex("other", null));
        assertThrows(InvalidRequestException.class, () -> engine.addIndex(null, PodValues.LABEL));
        assertThrows(InvalidRequestException.class, () -> engine.addIndex("", PodValues.LABEL));
        assertThrows(InvalidRequestException.class, () -> IndexFunction.ofStrings(null));
        assertThrows(UnknownIndexException.class, () -> engine.byIndex("missing", "a"));
        assertThrows(UnknownIndexException.class, () -> engine.removeIndex("missing"));
        assertThrows(UnknownIndexException.class, () -> engine.watch(WatchRequest.byIndex("missing", "a"), new CollectingListener()));
        assertThrows(UnknownIndexException.class, () -> engine.watchPull(WatchRequest.byIndex("missing", "a")));
        assertThrows(InvalidRequestException.class, () -> engine.byIndex("namespace", (byte[])null));
        assertThrows(InvalidRequestException.class, () -> WatchRequest.byIndex("namespace", (byte[])null));
        assertThrows(InvalidRequestException.class, () -> WatchRequest.byIndex("", "a"));
        assertEquals(Set.of("namespace"), engine.indexNames());
        assertEquals(0, engine.watcherCount());
    }

    @Test
    void anIndexValueOverTheLimitFailsTheWrite()
    {
        engine.addIndex("whole", (value, offset, length, sink) -> sink.accept(value, offset, length));
        final String huge = "v".repeat(IndexValues.MAX_VALUE_BYTES + 1);

        assertThrows(IndexFunctionException.class, () -> engine.put("p", huge));
        assertFalse(engine.get("p").isPresent());
        engine.put("p", "small");
        assertEquals(List.of("p"), keys(engine.byIndex("whole", "small").kvs()));
    }

    private static List<String> keys(final List<KeyValue> kvs)
    {
        final List<String> keys = new ArrayList<>();
        kvs.forEach(kv -> keys.add(kv.keyAsString()));
        return keys;
    }

    private static List<String> strings(final List<byte[]> values)
    {
        final List<String> out = new ArrayList<>();
        values.forEach(v -> out.add(new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    private static List<String> describe(final List<Event> events)
    {
        final List<String> out = new ArrayList<>();
        for (final Event event : events)
        {
            assertNull(event.type() == EventType.DELETE && event.kv().value().length > 0 ? "value on a delete" : null);
            out.add(event.type() + " " + event.kv().keyAsString() + "=" + event.kv().valueAsString() + " prev=" +
                (event.prevKv() == null ? "none" : event.prevKv().valueAsString()));
        }
        return out;
    }
}
