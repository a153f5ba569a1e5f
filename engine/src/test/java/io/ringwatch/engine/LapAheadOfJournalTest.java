package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ASYNC journal runs behind the window (the writer may run a write ring ahead of its appends). A watcher
 * reading by cursor that the window laps inside a multi-event revision the journal has not appended yet
 * goes on in the log from that exact event once the journal appends it: it is not cancelled
 * {@code REVISION_UNAVAILABLE}, and it gets every event once, in order. Before, the log's skip over the
 * events it had already read found the log short and the watch ended.
 *
 * <p>Held latches make the interleaving: the journal's appends are held, the listener is held inside the
 * revision, the dispatcher is parked between writes so only the watcher is lapped. The waits are a safety
 * net against hangs, not a measure of speed.
 */
class LapAheadOfJournalTest
{
    /** The window's events: fewer than the multi-event revision and the writes that lap it. */
    private static final int WINDOW = 16;
    /** Events of the one transaction, more than a delivery batch, so the listener is held inside it. */
    private static final int TXN_EVENTS = 12;
    private static final int BATCH = 4;

    private final DispatcherGate gate = new DispatcherGate();
    private final InMemoryJournal journal = new InMemoryJournal(1 << 12, false);
    private final HeldListener listener = new HeldListener(2);
    private RingWatch engine;

    @AfterEach
    void close()
    {
        gate.open();
        journal.releaseAppends();
        listener.release(1);
        listener.release(2);
        if (engine != null)
        {
            engine.close();
        }
    }

    @Test
    void aWatcherLappedInsideARevisionTheJournalHasNotAppendedWaitsForItAndMissesNothing()
    {
        final Watcher watcher = lapTheWatcherInsideATransactionTheJournalHolds();
        assertNull(listener.cancellation(), "cancelled while the journal was behind");
        journal.releaseAppends();
        engine.put("k" + (TXN_EVENTS + 1), "after");

        final List<String> expected = new ArrayList<>(List.of("e0"));
        for (int i = 1; i <= TXN_EVENTS; i++)
        {
            expected.add("t" + i);
        }
        expected.add("after");
        RecordingListener.await(() -> listener.events().size() >= expected.size() || listener.cancellation() != null,
            expected.size() + " events");
        assertNull(listener.cancellation(), "cancelled once the journal caught up");
        assertEquals(expected, RecordingListener.values(listener.events()), "every event once, in order");
        assertFalse(watcher.isCancelled());
    }

    @Test
    void aWatcherWaitingInsideARevisionIsCancelledOnceTheLogNoLongerHoldsIt()
    {
        final Watcher watcher = lapTheWatcherInsideATransactionTheJournalHolds();
        journal.dropBefore(engine.currentRevision());

        RecordingListener.await(() -> listener.cancellation() != null, "a cancellation");
        assertEquals(CancelReason.REVISION_UNAVAILABLE, listener.cancellation().reason());
        assertTrue(watcher.isCancelled());
        assertEquals(List.of("e0", "t1", "t2", "t3", "t4"), RecordingListener.values(listener.events()), "what it had before the log lost the rest");
    }

    /**
     * Holds the journal before a transaction of {@link #TXN_EVENTS} puts, lets the watcher's cursor hand over
     * its first {@link #BATCH} events and holds it there, writes until the window has lapped it, then lets it
     * read on until it has turned to the log and found the transaction not there yet.
     */
    private Watcher lapTheWatcherInsideATransactionTheJournalHolds()
    {
        engine = RingWatch.open(RingWatchConfig.builder()
            .windowCapacity(WINDOW, WINDOW)
            .windowFreshness(Duration.ofNanos(1))
            .dispatcherThreads(1)
            .dispatcherIdleStrategy(() -> gate)
            .watcherQueueDepth(BATCH)
            .deliveryBatchSize(BATCH)
            .slowListenerTimeout(Duration.ofMinutes(1))
            .persistence(name -> journal)
            .build());
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.prefix("k")), listener);

        engine.put("k0", "e0");
        listener.awaitHeld(1);
        // The journal stops here: the transaction and everything after it live only in the window.
        journal.holdAppends();
        final List<Op> puts = new ArrayList<>();
        for (int i = 1; i <= TXN_EVENTS; i++)
        {
            puts.add(Op.put("k" + i, "t" + i));
        }
        final long txnRevision = engine.currentRevision() + 1;
        engine.txnAsync(Txn.of(List.of(), puts, List.of()));
        assertTrue(engine.waitForRevision(txnRevision, RecordingListener.PATIENCE), "the transaction was applied");
        // Its queue (4 deep) overflows while the listener is held: it leaves the routes to read by cursor.
        RecordingListener.await(() -> stateOf(watcher) == WatcherView.State.CATCHING_UP, "the watcher reads by cursor");
        gate.closeAndAwaitParked();
        gate.open();

        listener.release(1);
        // Its cursor read the window up to the fourth event of the transaction and handed them over.
        assertEquals(List.of("e0", "t1", "t2", "t3", "t4"), RecordingListener.values(listener.awaitHeld(2)));
        long last = txnRevision;
        for (int i = 0; i < 2 * WINDOW; i += BATCH)
        {
            // A batch at a time, each routed before the next: the window laps the watcher, not the dispatcher.
            for (int j = i; j < i + BATCH; j++)
            {
                engine.writeAsync(Op.put("z", Integer.toString(j)));
                last++;
            }
            assertTrue(engine.waitForRevision(last, RecordingListener.PATIENCE), "the writes were applied");
            gate.closeAndAwaitParked();
            gate.open();
        }
        assertTrue(journal.lastRevision() < txnRevision, "the journal has not appended the transaction");

        final long atEnd = journal.readsAtEnd();
        listener.release(2);
        // The lapped cursor turned to the log and found the transaction not there yet.
        RecordingListener.await(() -> journal.readsAtEnd() > atEnd || listener.cancellation() != null, "the log read past its end");
        return watcher;
    }

    private WatcherView.State stateOf(final Watcher watcher)
    {
        for (final WatcherView view : engine.watchers())
        {
            if (view.id() == watcher.id())
            {
                return view.state();
            }
        }
        return null;
    }

    /**
     * Records events and holds the delivery thread inside each of its first calls until the test releases
     * it, so the test knows where the watcher's consumer stands.
     */
    private static final class HeldListener implements WatchListener
    {
        private final List<Event> events = new ArrayList<>();
        private final CountDownLatch[] entered;
        private final CountDownLatch[] released;
        private int calls;
        private volatile WatchCancellation cancellation;

        HeldListener(final int heldCalls)
        {
            entered = new CountDownLatch[heldCalls];
            released = new CountDownLatch[heldCalls];
            for (int i = 0; i < heldCalls; i++)
            {
                entered[i] = new CountDownLatch(1);
                released[i] = new CountDownLatch(1);
            }
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            final int call;
            synchronized (this)
            {
                for (int i = 0; i < batch.size(); i++)
                {
                    events.add(batch.get(i).toEvent());
                }
                call = calls++;
            }
            if (call < entered.length)
            {
                entered[call].countDown();
                await(released[call]);
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        /** Waits until the listener is held in its {@code call}th call (from 1); returns the events so far. */
        List<Event> awaitHeld(final int call)
        {
            await(entered[call - 1]);
            return events();
        }

        void release(final int call)
        {
            released[call - 1].countDown();
        }

        synchronized List<Event> events()
        {
            return new ArrayList<>(events);
        }

        WatchCancellation cancellation()
        {
            return cancellation;
        }

        private static void await(final CountDownLatch latch)
        {
            try
            {
                assertTrue(latch.await(RecordingListener.PATIENCE.toMillis(), TimeUnit.MILLISECONDS), "the listener's latch");
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
