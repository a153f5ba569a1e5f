package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The window laps the dispatcher (it is held parked while more than the window's 16 events are written), and
 * the dispatcher reads the lost events back from the journal: only the watchers they were for leave the
 * routes to catch up, each from where the routes had served it. Before, every routed watcher caught up from
 * its own last event, and ten thousand idle push watchers kept the delivery threads busy for seconds
 * (jcstress {@code CatchUpHandOverStress}: a push watcher that needed a turn waited more than 10 s).
 * The gate, not timing, makes the lap happen; the waits are a safety net.
 */
class LappedDispatcherTest
{
    private static final int LOST_WRITES = 40;

    private final DispatcherGate gate = new DispatcherGate();
    private InMemoryJournal journal;
    private RingWatch engine;

    @AfterEach
    void close()
    {
        gate.open();
        if (engine != null)
        {
            engine.close();
        }
    }

    @ParameterizedTest(name = "sync journal: {0}")
    @ValueSource(booleans = {true, false})
    void aLapSendsNoWatcherToCatchUpWhoseKeyTheLostEventsDoNotHold(final boolean sync)
    {
        open(sync);
        final List<RecordingListener> idle = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final RecordingListener listener = new RecordingListener();
            engine.watch(WatchRequest.of(KeyRange.key("a")), listener);
            idle.add(listener);
        }
        engine.put("a", "0");
        idle.forEach(listener -> listener.awaitEvents(1));

        final long last = lapTheDispatcherWith(i -> engine.put("b", Integer.toString(i)).revision());
        // An ASYNC journal appends behind the window; the lap waits for it only a while, so the test
        // lets it append first, and the lap finds every lost revision in it.
        RecordingListener.await(() -> journal.lastRevision() >= last, "the journal appended revision " + last);
        final int readers = journal.readersOpened();
        gate.open();
        // Once the lap is handled: a write during it could be overwritten in turn and lap it again.
        gate.closeAndAwaitParked();
        gate.open();
        engine.put("a", "1");

        for (final RecordingListener listener : idle)
        {
            assertEquals(List.of("0", "1"), RecordingListener.values(listener.awaitEvents(2)), "an idle watcher's events, each once");
        }
        // The dispatcher's own reader of the lost events; none of the idle watchers opened one.
        assertEquals(1, journal.readersOpened() - readers, "journal readers opened after the lap");
    }

    @Test
    void aWatcherOfTheLostEventsCatchesUpAndGetsEachOnceInOrderWhileTheOthersStayRouted()
    {
        open(true);
        final RecordingListener ofLost = new RecordingListener();
        final RecordingListener other = new RecordingListener();
        final Watcher lostWatcher = engine.watch(WatchRequest.of(KeyRange.prefix("b")), ofLost);
        engine.watch(WatchRequest.of(KeyRange.key("a")), other);
        engine.put("a", "0");
        engine.put("b", "start");
        other.awaitEvents(1);
        ofLost.awaitEvents(1);

        lapTheDispatcherWith(i -> engine.put("b" + (i % 3), Integer.toString(i)).revision());
        gate.open();
        engine.put("a", "1");

        final List<String> expected = new ArrayList<>();
        expected.add("start");
        for (int i = 0; i < LOST_WRITES; i++)
        {
            expected.add(Integer.toString(i));
        }
        assertEquals(expected, RecordingListener.values(ofLost.awaitEvents(1 + LOST_WRITES)));
        assertEquals(List.of("0", "1"), RecordingListener.values(other.awaitEvents(2)));
        assertFalse(lostWatcher.isCancelled());
    }

    @Test
    void aLappedWatcherThatHadTakenEverythingQueuedReadsTheJournalFromTheLapNotFromItsLastEvent()
    {
        open(true);
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.key("b")), listener);
        engine.put("b", "0");
        listener.awaitEvents(1);
        // Long after its last event, routed and with nothing queued.
        final int unrelated = 2_000;
        for (int i = 0; i < unrelated; i += 10)
        {
            // Ten at a time, each ten routed before the next: no lap yet.
            for (int j = i; j < i + 10; j++)
            {
                engine.put("c", Integer.toString(j));
            }
            gate.closeAndAwaitParked();
            gate.open();
        }

        lapTheDispatcherWith(i -> engine.put("b", Integer.toString(i + 1)).revision());
        final long read = journal.changesRead();
        gate.open();

        assertEquals(1 + LOST_WRITES, listener.awaitEvents(1 + LOST_WRITES).size());
        final long readSinceLap = journal.changesRead() - read;
        // The dispatcher's read of the lost events and the watcher's catch-up after them: about twice
        // LOST_WRITES, where a catch-up from its last event would read the unrelated writes too.
        assertTrue(readSinceLap < unrelated / 2, "changes read from the journal after the lap: " + readSinceLap);
    }

    private void open(final boolean sync)
    {
        journal = new InMemoryJournal(1 << 16, sync);
        engine = RingWatch.open(RingWatchConfig.builder()
            .windowCapacity(16, 16)
            .windowFreshness(Duration.ofNanos(1))
            .dispatcherThreads(1)
            .dispatcherIdleStrategy(() -> gate)
            .persistence(name -> journal)
            .build());
    }

    /**
     * Parks the dispatcher, then writes more than the window holds, so that it finds its next event overwritten.
     *
     * @return the revision of the last write.
     */
    private long lapTheDispatcherWith(final Write write)
    {
        gate.closeAndAwaitParked();
        long last = 0;
        for (int i = 0; i < LOST_WRITES; i++)
        {
            last = write.put(i);
        }
        return last;
    }

    @FunctionalInterface
    private interface Write
    {
        long put(int i);
    }
}
