package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An engine over a journal: every revision is recorded, a sync journal is flushed before a write
 * is acknowledged, a restart recovers the state, and watchers the window cannot serve catch up
 * from the journal and rejoin the window with no gap and no duplicate.
 */
class JournalTest
{
    /** A window of 16 events over {@code journal}: watchers fall out of it and catch up from the journal. */
    private static RingWatchConfig tinyWindow(final Journal journal)
    {
        return RingWatchConfig.builder()
            .windowCapacity(16, 16)
            .windowFreshness(Duration.ofNanos(1))
            .persistence(name -> journal)
            .build();
    }

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
    void aPersistenceThatOpensNoJournalIsRefusedRatherThanRunInMemory()
    {
        final RingWatchConfig config = RingWatchConfig.builder().persistence(name -> null).build();

        assertThrows(InvalidRequestException.class, () -> RingWatch.open(config));
    }

    @Test
    void aWatchFromBeforeTheWindowCatchesUpFromTheJournalThenFollowsLiveWrites()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(tinyWindow(journal));
        for (int i = 0; i < 200; i++)
        {
            engine.put("k" + (i % 7), "v" + i);
        }
        final RecordingListener listener = new RecordingListener();
        final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.all()).startRevision(1).withPrevKv(), listener);
        for (int i = 200; i < 500; i++)
        {
            engine.put("k" + (i % 7), "v" + i);
        }

        final List<Event> events = listener.awaitEvents(500);
        assertEquals(500, events.size());
        for (int i = 0; i < 500; i++)
        {
            final Event event = events.get(i);
            assertEquals(i + 1, event.revision(), "revision of event " + i);
            assertEquals("k" + (i % 7), event.kv().keyAsString());
            assertEquals("v" + i, new String(event.kv().value()));
            assertEquals(i / 7 + 1, event.kv().version(), "version of event " + i);
            assertEquals(i % 7 + 1, event.kv().createRevision());
            if (i >= 7)
            {
                assertEquals("v" + (i - 7), new String(event.prevKv().value()), "prevKv of event " + i);
            }
            else
            {
                assertNull(event.prevKv());
            }
        }
        assertFalse(watcher.isCancelled());
    }

    @Test
    void aBlockedListenerIsLappedButCatchesUpWithoutLosingOrRepeatingAnEvent() throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(tinyWindow(journal));
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> revisions = new ArrayList<>();
        final CountDownLatch all = new CountDownLatch(1);
        engine.watch(WatchRequest.of(KeyRange.prefix("k")), new io.ringwatch.engine.watch.WatchListener()
        {
            @Override
            public void onEvents(final EventBatch batch)
            {
                awaitQuietly(release);
                for (int i = 0; i < batch.size(); i++)
                {
                    revisions.add(batch.get(i).revision());
                }
                if (!revisions.isEmpty() && revisions.get(revisions.size() - 1) == 1000)
                {
                    all.countDown();
                }
            }
        });
        for (int i = 0; i < 1000; i++)
        {
            engine.put("k" + i, "v");
        }
        release.countDown();

        assertTrue(all.await(30, TimeUnit.SECONDS), "received " + revisions.size() + " events");
        assertEquals(1000, revisions.size());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(i + 1, revisions.get(i));
        }
    }

    @Test
    void aPullWatcherFarBehindTheWindowCatchesUp() throws Exception
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1))
            .watcherQueueDepth(16).persistence(name -> journal).build());
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()));
        for (int i = 0; i < 300; i++)
        {
            engine.put("k", "v" + i);
        }
        final List<Event> events = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.size() < 300 && System.nanoTime() < deadline)
        {
            final WatchResponse response = watcher.next(Duration.ofMillis(100));
            assertNull(response.cancellation());
            events.addAll(response.events());
        }
        assertEquals(300, events.size());
        for (int i = 0; i < 300; i++)
        {
            assertEquals(i + 1, events.get(i).revision());
            assertEquals("v" + i, new String(events.get(i).kv().value()));
        }
    }

    @Test
    void aWatchFromARevisionTheJournalNoLongerHoldsIsCancelledWithItsFirstRevision()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(tinyWindow(journal));
        for (int i = 0; i < 100; i++)
        {
            engine.put("k", "v" + i);
        }
        journal.dropBefore(40);
        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(10), listener);

        assertEquals(io.ringwatch.engine.watch.CancelReason.REVISION_UNAVAILABLE, listener.awaitCancellation().reason());
        assertEquals(40, listener.cancellation().compactRevision());
        assertTrue(listener.events().isEmpty());
    }

    @Test
    void aSyncJournalIsFlushedBeforeAWriteIsAcknowledged()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        for (int i = 0; i < 100; i++)
        {
            final WriteResult result = engine.put(("k" + i).getBytes(), "v".getBytes());
            assertTrue(journal.durableRevision() >= result.revision(),
                "revision " + result.revision() + " acknowledged with only " + journal.durableRevision() + " durable");
        }
        assertTrue(journal.flushes() >= 1);
    }

    @Test
    void theJournalStageAppendsOnlyInsideBatchesAndFlushesOnlyBetweenThem()
    {
        for (final boolean sync : new boolean[] {false, true})
        {
            final int writes = 5_000;
            final InMemoryJournal journal = new InMemoryJournal(1 << 16, sync);
            engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
            final List<CompletableFuture<WriteResult>> results = new ArrayList<>(writes);
            for (int i = 0; i < writes; i++)
            {
                results.add(engine.writeAsync(Op.put("k" + (i % 100), "v" + i)));
            }
            results.forEach(CompletableFuture::join);
            engine.close();
            engine = null;

            assertEquals(writes, journal.lastRevision(), "sync " + sync);
            assertEquals(0, journal.outOfBatchCalls(), "sync " + sync);
            assertFalse(journal.batchOpen(), "sync " + sync);
            assertTrue(journal.batches() >= 1 && journal.batches() <= writes, "sync " + sync + ": " + journal.batches());
        }
    }

    @Test
    void anAsyncJournalIsNeverFlushed()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("k", "v");
        assertEquals(1, journal.lastRevision());
        assertEquals(0, journal.flushes());
    }

    @Test
    void anAsyncJournalAcknowledgesEveryWriteOfABurstOnlyOnceAppendedAndStillAppendsALoneWriteAfterIt()
    {
        // A burst hands the journal batches large enough for it to nap between them; the lone
        // write after it must still be appended and acknowledged (the journal leaves the naps).
        final int burst = 20_000;
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        final LongAdder ackedBeforeAppended = new LongAdder();
        final List<CompletableFuture<WriteResult>> writes = new ArrayList<>(burst);
        final List<CompletableFuture<Void>> checks = new ArrayList<>(burst);
        for (int i = 0; i < burst; i++)
        {
            final CompletableFuture<WriteResult> write = engine.writeAsync(Op.put("k" + (i % 100), "v" + i));
            checks.add(write.thenAccept(result ->
            {
                if (journal.lastRevision() < result.revision())
                {
                    ackedBeforeAppended.increment();
                }
            }));
            writes.add(write);
        }
        for (int i = 0; i < burst; i++)
        {
            assertEquals(i + 1, writes.get(i).join().revision());
        }
        // A write's join returns once it is complete, while its check may still run on the
        // completing thread: wait for every check before reading what they counted.
        checks.forEach(CompletableFuture::join);
        assertEquals(0, ackedBeforeAppended.sum());
        assertEquals(burst, journal.lastRevision());

        final WriteResult lone = engine.put("lone".getBytes(), "v".getBytes());
        assertEquals(burst + 1, lone.revision());
        assertEquals(burst + 1, journal.lastRevision());
        assertEquals(0, journal.flushes());
    }

    @Test
    void aRestartRecoversTheStateAndContinuesTheRevisions()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, false);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        engine.put("b", "2");
        engine.put("a", "3");
        engine.delete(KeyRange.key("b".getBytes()));
        engine.put("c", "4");
        final List<KeyValue> before = engine.range(KeyRange.all(), 0).kvs();
        engine.compact(2);
        engine.close();

        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        assertEquals(5, engine.currentRevision());
        assertEquals(2, engine.compactRevision());
        assertEquals(before, engine.range(KeyRange.all(), 0).kvs());
        assertEquals(6, engine.put("a", "5").revision());
        assertEquals(3, engine.get("a").orElseThrow().version());

        final RecordingListener listener = new RecordingListener();
        engine.watch(WatchRequest.of(KeyRange.all()).startRevision(2), listener);
        final List<Event> events = listener.awaitEvents(5);
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L), events.stream().map(Event::revision).toList());
        assertEquals(EventType.DELETE, events.get(2).type());
    }

    @Test
    void aJournalFailureFailsThatWriteAndEveryLaterOneButReadsGoOn()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.put("a", "1");
        journal.failAppends();

        assertThrows(JournalFailedException.class, () -> engine.put("b", "2"));
        assertThrows(JournalFailedException.class, () -> engine.put("c", "3"));
        assertEquals("1", new String(engine.get("a").orElseThrow().value()));
        assertEquals(1, journal.lastRevision());
    }

    /**
     * The roll-back after a journal failure restores each key's previous value in the secondary
     * indexes too: the key is filed under the index values of the value it is back to. Found on
     * main 817b6a0: the roll-back reused the derivation the failed write's own put had staged on
     * the writer (its NEW value's index values), so "a" stayed filed under "2" with its value back
     * at "1": byIndex("self", "2") returned a=1 and byIndex("self", "1") nothing.
     */
    @Test
    void aJournalFailureRollsTheSecondaryIndexesBackWithTheKeys()
    {
        final InMemoryJournal journal = new InMemoryJournal(1 << 16, true);
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> journal).build());
        engine.addIndex("self", (value, offset, length, sink) -> sink.accept(value, offset, length));
        engine.put("a", "1");
        journal.failAppends();

        assertThrows(JournalFailedException.class, () -> engine.put("a", "2"));

        assertEquals("1", engine.get("a").orElseThrow().valueAsString());
        assertEquals(List.of("a=1"), engine.byIndex("self", "1").kvs().stream()
            .map(kv -> kv.keyAsString() + "=" + kv.valueAsString()).toList());
        assertEquals(List.of(), engine.byIndex("self", "2").kvs());
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
