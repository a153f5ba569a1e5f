package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RevisionTooLargeException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write the revision log cannot take whole is refused before anything changes: the index, the
 * window (and so every watcher), the log and the revision counter stay as they were, later writes
 * go on, and close and reopen find exactly the acknowledged writes.
 */
class DurableWriteTest
{
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(LogConfig.Durability.class)
    void aTransactionOverTheLogsRevisionCapIsRefusedWholeAndChangesNothing(final LogConfig.Durability durability)
    {
        final List<Op> puts = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            puts.add(Op.put(("big" + i).getBytes(), new byte[MIB]));
        }
        try (RingWatch engine = open(durability))
        {
            final RecordingListener listener = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.all()), listener);
            assertEquals(1, engine.put("a", "1").revision());

            assertThrows(RevisionTooLargeException.class, () -> engine.txn(Txn.of(List.of(), puts, List.of())));

            assertEquals(1, engine.currentRevision());
            assertEquals(1, engine.count(KeyRange.all()));
            assertFalse(engine.get("big0").isPresent());
            assertEquals(2, engine.put("b", "2").revision(), "the engine keeps writing after a refusal");
            final List<Event> events = listener.awaitEvents(2);
            assertEquals(List.of(1L, 2L), events.stream().map(Event::revision).toList());
            assertEquals(List.of("a", "b"), events.stream().map(e -> e.kv().keyAsString()).toList());
        }
        try (RingWatch reopened = open(durability))
        {
            assertEquals(2, reopened.currentRevision());
            assertEquals(2, reopened.count(KeyRange.all()));
            assertEquals("2", new String(reopened.get("b").orElseThrow().value()));
        }
    }

    @ParameterizedTest
    @EnumSource(LogConfig.Durability.class)
    void aRangeDeleteWhoseDeletedValuesExceedTheCapIsRefusedWhole(final LogConfig.Durability durability)
    {
        try (RingWatch engine = open(durability))
        {
            for (int i = 0; i < 5; i++)
            {
                engine.put(("big" + i).getBytes(), new byte[MIB]);
            }
            final KeyRange all = KeyRange.prefix("big".getBytes());

            assertThrows(RevisionTooLargeException.class, () -> engine.delete(all));

            assertEquals(5, engine.currentRevision());
            assertEquals(5, engine.count(all));
            assertEquals(6, engine.delete("big0".getBytes()).revision());
        }
        try (RingWatch reopened = open(durability))
        {
            assertEquals(6, reopened.currentRevision());
            assertEquals(4, reopened.count(KeyRange.all()));
        }
    }

    @ParameterizedTest
    @EnumSource(LogConfig.Durability.class)
    void aTransactionJustUnderTheCapIsApplied(final LogConfig.Durability durability)
    {
        final List<Op> puts = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            puts.add(Op.put(("big" + i).getBytes(), new byte[MIB]));
        }
        try (RingWatch engine = open(durability))
        {
            assertTrue(engine.txn(Txn.of(List.of(), puts, List.of())).succeeded());
            assertEquals(3, engine.count(KeyRange.all()));
        }
    }

    private RingWatch open(final LogConfig.Durability durability)
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(durability).build())
            .build());
    }
}
