package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code compact(R)} cancels every watcher still positioned before R (reading the history by its
 * cursor, behind the compaction point) with COMPACTED and R, as etcd cancels its unsynced
 * watchers; a watcher positioned at or after R, behind or at the head, goes on untouched. In
 * memory and over a revision log in both durabilities.
 */
class CompactCancelsWatchersTest
{
    private static final int REVISIONS = 100;
    private static final long COMPACT_AT = 50;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"memory", "ASYNC", "SYNC"})
    void watchersBeforeTheCompactRevisionAreCancelledCompactedAndTheOthersGoOn(final String mode) throws Exception
    {
        final RingWatchConfig.Builder config = RingWatchConfig.builder().watcherQueueDepth(8);
        if (!mode.equals("memory"))
        {
            config.persistence(LogConfig.builder(dir).durability(LogConfig.Durability.valueOf(mode)).build());
        }
        try (RingWatch engine = RingWatch.open(config.build()))
        {
            for (int i = 1; i <= REVISIONS; i++)
            {
                engine.put("key-" + i, "v" + i);
            }
            // More events than its queue takes: these two read the history by their own cursors.
            final PullWatcher behind = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(1));
            final PullWatcher atCompact = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(COMPACT_AT));
            final PullWatcher head = engine.watchPull(WatchRequest.of(KeyRange.all()));

            engine.compact(COMPACT_AT);
            engine.put("after", "compaction");

            final List<Event> behindEvents = new ArrayList<>();
            final WatchCancellation cancelled = drain(behind, behindEvents, Integer.MAX_VALUE);
            assertNotNull(cancelled, "the watcher behind the compaction point is cancelled");
            assertEquals(CancelReason.COMPACTED, cancelled.reason());
            assertEquals(COMPACT_AT, cancelled.compactRevision());
            assertTrue(behindEvents.isEmpty(), "it delivers nothing from compacted history: " + behindEvents.size());
            assertTrue(behind.isCancelled());

            final List<Event> atCompactEvents = new ArrayList<>();
            assertNull(drain(atCompact, atCompactEvents, REVISIONS + 2 - (int)COMPACT_AT));
            assertEquals(COMPACT_AT, atCompactEvents.get(0).revision());
            assertEquals(REVISIONS + 1, atCompactEvents.get(atCompactEvents.size() - 1).revision());
            assertFalse(atCompact.isCancelled());

            final List<Event> headEvents = new ArrayList<>();
            assertNull(drain(head, headEvents, 1));
            assertEquals("after", headEvents.get(0).kv().keyAsString());
            assertFalse(head.isCancelled());
        }
    }

    /** Polls until {@code count} events came or the watch ended; returns its cancellation, if any. */
    private static WatchCancellation drain(final PullWatcher watcher, final List<Event> into, final int count)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (into.size() < count && System.nanoTime() < deadline)
        {
            final WatchResponse response = watcher.next(Duration.ofMillis(200));
            if (response == null)
            {
                continue;
            }
            into.addAll(response.events());
            if (response.cancellation() != null)
            {
                return response.cancellation();
            }
        }
        return null;
    }
}
