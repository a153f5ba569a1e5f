package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A catching-up watcher of one key reads past every other key's changes; one call reads at most
 * {@link WatcherConsumer#CATCH_UP_READS_PER_CALL} of them, so a push watcher's turn is short however
 * far behind it is, and the watchers queued behind it on the delivery threads get theirs. Driven by a
 * pull watcher's polls on the test thread: each poll is one call.
 */
class CatchUpReadBoundTest
{
    /** A safety net against a hang, never a measure of speed. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final int OTHER_KEY_WRITES = 3 * WatcherConsumer.CATCH_UP_READS_PER_CALL;

    private final InMemoryJournal journal = new InMemoryJournal(1 << 16, true);
    private RingWatch engine;

    @AfterEach
    void close()
    {
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void eachCatchUpCallReadsABoundedNumberOfChangesAndTheWatcherStillGetsItsEventOnce()
    {
        engine = RingWatch.open(RingWatchConfig.builder()
            .windowCapacity(16, 16)
            .windowFreshness(Duration.ofNanos(1))
            .persistence(name -> journal)
            .build());
        // Polled until it has its event: then the dispatcher has passed every write (and read what it
        // lost to laps from the journal), so only the watcher below reads the journal from then on.
        final PullWatcher marker = engine.watchPull(WatchRequest.of(KeyRange.key("z")));
        engine.put("a", "first");
        for (int i = 0; i < OTHER_KEY_WRITES; i++)
        {
            engine.put("c", Integer.toString(i));
        }
        engine.put("a", "second");
        engine.put("z", "done");
        final Values seen = new Values();
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (marker.poll(seen, 16) == 0 && seen.values.isEmpty())
        {
            assertTrue(System.nanoTime() < deadline, "the marker watcher got its event");
            LockSupport.parkNanos(100_000);
        }
        final Values values = new Values();
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.key("a")).startRevision(1));

        int readingCalls = 0;
        long worstCall = 0;
        final long eventsDeadline = System.nanoTime() + PATIENCE.toNanos();
        while (values.values.size() < 2)
        {
            final long before = journal.changesRead();
            watcher.poll(values, 16);
            final long read = journal.changesRead() - before;
            worstCall = Math.max(worstCall, read);
            if (read > 0)
            {
                readingCalls++;
            }
            else
            {
                // At the journal's end, waiting for the dispatcher to confirm the rejoin: on a loaded
                // machine that takes any number of polls, so only polls that read count.
                LockSupport.parkNanos(100_000);
            }
            assertTrue(System.nanoTime() < eventsDeadline, "the watcher got its events");
        }

        assertEquals(List.of("first", "second"), values.values);
        assertTrue(worstCall <= WatcherConsumer.CATCH_UP_READS_PER_CALL, "changes one call read: " + worstCall);
        assertTrue(readingCalls > OTHER_KEY_WRITES / WatcherConsumer.CATCH_UP_READS_PER_CALL, "calls that read the journal: " + readingCalls);
    }

    /** Keeps the values it is handed. The polling thread only. */
    private static final class Values implements WatchListener
    {
        final List<String> values = new ArrayList<>();

        @Override
        public void onEvents(final EventBatch events)
        {
            for (int i = 0; i < events.size(); i++)
            {
                values.add(new String(events.get(i).toEvent().kv().value()));
            }
        }
    }
}
