package io.ringwatch.engine.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.errors.RevisionTooLargeException;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12, "What was seen" item 3: a transaction of 6 values of about 1 MiB (each within the
 * value limit) is over the log's 4 MiB per-revision cap. The old engine failed it with
 * JournalFailedException after memory had moved to the new revision with 4 of the 6 keys
 * visible, refused every later write, failed close() and reopened at an older revision. It must
 * be refused whole, up front, with a typed error, and change nothing anywhere.
 */
class OversizeTxnTest
{
    private static final int VALUE_BYTES = (1 << 20) - 1_024;

    /** Issue 12 item 3: refused whole; nothing changed; later writes, close and reopen all work. */
    @ParameterizedTest(name = "{0} engine")
    @EnumSource(value = Scenario.Mode.class, names = {"ASYNC", "SYNC"})
    void aTransactionOverThePerRevisionCapIsRefusedWholeAndChangesNothing(final Scenario.Mode mode, @TempDir final Path dir)
    {
        final RingWatchConfig config = mode.builder(dir).build();
        final Seen seen = new Seen();
        try (RingWatch engine = RingWatch.open(config))
        {
            assertEquals(1, engine.put("/before", "b").revision());
            engine.watch(WatchRequest.of(KeyRange.all()), seen);
            final List<Op> ops = new ArrayList<>();
            for (int i = 0; i < 6; i++)
            {
                final byte[] value = new byte[VALUE_BYTES];
                Arrays.fill(value, (byte)('a' + i));
                ops.add(Op.put(("/big/" + i).getBytes(), value));
            }
            try
            {
                final long revision = engine.txn(Txn.of(List.of(), ops, List.of())).revision();
                fail("a transaction of about 6 MiB over the 4 MiB per-revision cap was acknowledged at revision " + revision);
            }
            catch (final RuntimeException refused)
            {
                assertFalse(refused instanceof JournalFailedException,
                    "the writer must refuse it before the journal sees it, not fail the journal: " + refused);
                assertInstanceOf(RevisionTooLargeException.class, refused, "not the typed refusal: " + refused);
            }
            assertEquals(1, engine.currentRevision(), "the revision moved");
            assertEquals(0, engine.count(KeyRange.prefix("/big/")), "keys of the refused txn are visible");
            for (int i = 0; i < 6; i++)
            {
                assertTrue(engine.get("/big/" + i).isEmpty(), "/big/" + i + " is visible");
            }
            assertEquals(1, engine.range(KeyRange.all(), 0).kvs().size());
            assertEquals(1, engine.range(KeyRange.all(), 0, 1).kvs().size());

            assertEquals(2, engine.put("/after", "a").revision(), "a later write");
            Scenario.await(() -> !seen.events().isEmpty(), "the watcher's event for the later write");
            final List<Event> events = seen.events();
            assertEquals(1, events.size(), "the watcher saw more than the later write: " + events);
            assertEquals("/after", events.get(0).kv().keyAsString());
            assertEquals(2, events.get(0).revision());
        }
        try (RingWatch reopened = RingWatch.open(config))
        {
            assertEquals(2, reopened.currentRevision(), "revision after reopen");
            assertEquals("b", reopened.get("/before").orElseThrow().valueAsString());
            assertEquals("a", reopened.get("/after").orElseThrow().valueAsString());
            assertEquals(0, reopened.count(KeyRange.prefix("/big/")));
        }
    }

    /** Copies of what a watcher was told. */
    private static final class Seen implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                events.add(batch.get(i).toEvent());
            }
        }

        synchronized List<Event> events()
        {
            return new ArrayList<>(events);
        }
    }
}
