package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BadInputTest
{
    @Test
    void badKeysAndValuesAreRefusedAndChangeNothing()
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().maxKeyBytes(8).maxValueBytes(16).build()))
        {
            assertThrows(InvalidRequestException.class, () -> engine.put((byte[])null, new byte[1]));
            assertThrows(InvalidRequestException.class, () -> engine.put(new byte[0], new byte[1]));
            assertThrows(InvalidRequestException.class, () -> engine.put(new byte[1], null));
            assertThrows(InvalidRequestException.class, () -> engine.put(new byte[9], new byte[1]));
            assertThrows(InvalidRequestException.class, () -> engine.put(new byte[1], new byte[17]));
            assertThrows(InvalidRequestException.class, () -> engine.newDirectWriter()
                .put(new org.agrona.concurrent.UnsafeBuffer(new byte[9]), 0, 9, new org.agrona.concurrent.UnsafeBuffer(new byte[1]), 0, 1));
            assertEquals(0, engine.currentRevision());
            assertEquals(0, engine.size());
        }
    }

    @Test
    void anIndexSizeHintBeyondWhatTheHashTableHoldsIsRefusedByTheConfig()
    {
        final RingWatchConfig.Builder builder = RingWatchConfig.builder();
        assertThrows(InvalidRequestException.class, () -> builder.indexInitialCapacity((1 << 27) + 1));
        assertThrows(InvalidRequestException.class, () -> builder.indexInitialCapacity(15));
        assertEquals(1 << 27, builder.indexInitialCapacity(1 << 27).build().indexInitialCapacity());
    }

    @Test
    void rangesMustEndAfterTheyStart()
    {
        assertThrows(InvalidRequestException.class, () -> KeyRange.range("b", "a"));
        assertThrows(InvalidRequestException.class, () -> KeyRange.range("a", "a"));
        assertThrows(InvalidRequestException.class, () -> KeyRange.prefix((String)null));
        assertThrows(InvalidRequestException.class, () -> KeyRange.key((String)null));
    }

    @Test
    void negativeRevisionsAndLimitsAreRefused()
    {
        try (RingWatch engine = RingWatch.open())
        {
            assertThrows(InvalidRequestException.class, () -> WatchRequest.of(KeyRange.all()).startRevision(-1));
            assertThrows(InvalidRequestException.class, () -> engine.compareAndPut(Keys.utf8("a"), Keys.utf8("b"), -2));
            assertThrows(InvalidRequestException.class, () -> engine.waitForRevision(-1, Duration.ZERO));
            assertThrows(InvalidRequestException.class, () -> engine.range(KeyRange.all(), -1));
            assertEquals(0, engine.currentRevision());
        }
    }

    @Test
    void aTransactionWritingOneKeyTwiceIsRefused()
    {
        try (RingWatch engine = RingWatch.open())
        {
            assertThrows(InvalidRequestException.class, () -> engine.txn(Txn.of(List.of(),
                List.of(Op.put("a", "1"), Op.put("a", "2")), List.of())));
            assertThrows(InvalidRequestException.class, () -> engine.txn(Txn.of(List.of(),
                List.of(Op.put("a/1", "1"), Op.delete(KeyRange.prefix("a/"))), List.of())));
            assertEquals(0, engine.currentRevision());
        }
    }

    @Test
    void everythingAfterCloseIsRefusedWithEngineClosed()
    {
        final RingWatch engine = RingWatch.open();
        engine.put("a", "1");
        engine.close();
        engine.close();
        assertThrows(EngineClosedException.class, () -> engine.put("a", "2"));
        assertThrows(EngineClosedException.class, () -> engine.get("a"));
        assertThrows(EngineClosedException.class, () -> engine.watch(WatchRequest.of(KeyRange.all()), batch -> { }));
        assertThrows(EngineClosedException.class, () -> engine.watchPull(WatchRequest.of(KeyRange.all())));
        assertThrows(EngineClosedException.class, () -> engine.newDirectWriter());
    }

    @Test
    void cancellingTwiceIsHarmless()
    {
        try (RingWatch engine = RingWatch.open())
        {
            final RecordingListener listener = new RecordingListener();
            final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.all()), listener);
            watcher.cancel();
            watcher.cancel();
            assertTrue(watcher.isCancelled());
            listener.awaitCancellation();
            engine.put("a", "1");
            assertEquals(1, listener.cancellations());
            assertEquals(0, listener.events().size());
        }
    }
}
