package io.ringwatch.engine;

import io.ringwatch.engine.direct.DirectEntry;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadsTest
{
    private final RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void rangesComeBackInUnsignedKeyOrderAtTheCurrentRevision()
    {
        engine.put(new byte[]{'k', (byte)0xFF}, new byte[]{1});
        engine.put(new byte[]{'k', 0x01}, new byte[]{2});
        engine.put(new byte[]{'k', (byte)0x80}, new byte[]{3});
        engine.put(new byte[]{'j'}, new byte[]{4});

        final RangeResult result = engine.range(KeyRange.prefix(new byte[]{'k'}), 0);
        assertEquals(4, result.revision());
        assertEquals(List.of(0x01, 0x80, 0xFF),
            result.kvs().stream().map(kv -> kv.key()[1] & 0xFF).toList());
        assertFalse(result.more());
    }

    @Test
    void aLimitCutsTheRangeAndSaysMoreFollow()
    {
        for (int i = 0; i < 10; i++)
        {
            engine.put("key-" + i, "v" + i);
        }
        final RangeResult first = engine.range(KeyRange.prefix("key-"), 3);
        assertEquals(List.of("key-0", "key-1", "key-2"), first.kvs().stream().map(KeyValue::keyAsString).toList());
        assertTrue(first.more());
        final RangeResult all = engine.range(KeyRange.prefix("key-"), 10);
        assertEquals(10, all.kvs().size());
        assertFalse(all.more());
        assertEquals(10, engine.count(KeyRange.all()));
        assertEquals(3, engine.count(KeyRange.range("key-3", "key-6")));
        assertEquals(4, engine.count(KeyRange.from("key-6".getBytes())));
    }

    @Test
    void aSingleKeyRangeHoldsThatKeyOnly()
    {
        engine.put("a", "1");
        engine.put("ab", "2");
        final RangeResult result = engine.range(KeyRange.key("a"), 0);
        assertEquals(1, result.kvs().size());
        assertEquals("1", result.kvs().get(0).valueAsString());
        assertEquals(0, engine.range(KeyRange.key("zz"), 0).kvs().size());
    }

    @Test
    void theZeroAllocationGetFillsAReusableEntry()
    {
        engine.put("key", "v1");
        engine.put("key", "value-2");
        final DirectEntry entry = engine.newDirectEntry();
        final UnsafeBuffer key = new UnsafeBuffer("..key".getBytes());
        assertTrue(engine.get(key, 2, 3, entry));
        assertEquals("value-2", new String(entry.valueBytes()));
        assertEquals(1, entry.createRevision());
        assertEquals(2, entry.modRevision());
        assertEquals(2, entry.version());
        assertFalse(engine.get(key, 0, 2, entry));
        assertFalse(entry.found());
        assertThrows(InvalidRequestException.class, () -> engine.get(key, 0, 0, entry));
    }

    @Test
    void theZeroAllocationGetRefusesAHolderItDidNotMake()
    {
        engine.put("key", "v1");
        final DirectEntry foreign = (DirectEntry)Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DirectEntry.class}, (proxy, method, args) -> null);

        assertThrows(InvalidRequestException.class, () -> engine.get(new UnsafeBuffer("key".getBytes()), 0, 3, foreign));
    }

    @Test
    void waitForRevisionReturnsOnceTheRevisionIsApplied() throws Exception
    {
        assertFalse(engine.waitForRevision(1, Duration.ofMillis(20)));
        final CompletableFuture<Boolean> waiting =
            CompletableFuture.supplyAsync(() -> engine.waitForRevision(2, RecordingListener.PATIENCE));
        engine.put("a", "1");
        engine.put("a", "2");
        assertTrue(waiting.get());
        assertTrue(engine.waitForRevision(0, Duration.ZERO));
    }

    @Test
    void compactionMovesForwardOnlyAndNeverPastTheCurrentRevision()
    {
        engine.put("a", "1");
        engine.put("a", "2");
        final FutureRevisionException future = assertThrows(FutureRevisionException.class, () -> engine.compact(3));
        assertEquals(2, future.currentRevision());
        engine.compact(2);
        assertEquals(2, engine.compactRevision());
        final CompactedException again = assertThrows(CompactedException.class, () -> engine.compact(1));
        assertEquals(2, again.compactRevision());
        assertThrows(CompactedException.class, () -> engine.compact(0), "below etcd's mark, 2");
        assertThrows(InvalidRequestException.class, () -> engine.compact(-1));
    }
}
