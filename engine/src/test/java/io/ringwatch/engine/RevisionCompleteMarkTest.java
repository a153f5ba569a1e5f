package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pull watcher handed part of a revision in one duty cycle learns when the revision is whole,
 * even if the rest of it matches nothing of the watch: the dispatcher marks its ready entry in the
 * cycle that completes the revision. An owner that holds a revision's events until the watcher's
 * {@code position()} covers it (the etcd server, which never splits a revision) would otherwise
 * hold them until something else woke it. The dispatcher is paused in its second cycle, inside an
 * index function it runs, so that the owner polls exactly between the two cycles; no timing
 * decides the test (the wait for the mark only bounds a failure).
 */
class RevisionCompleteMarkTest
{
    /** More events than one duty cycle routes (4,096), all at one revision. */
    private static final int EVENTS = 6_000;
    private static final int PAUSE_AT = 5_000;
    private static final String PAUSE = "pause";

    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("revision-complete").dispatcherThreads(1).build());

    @AfterEach
    void close()
    {
        resume.countDown();
        engine.close();
    }

    @Test
    void aWatcherHandedPartOfARevisionIsMarkedWhenTheRestOfItCompletesIt() throws Exception
    {
        engine.addIndex("pauser", (value, offset, length, sink) ->
        {
            if (Thread.currentThread().getName().startsWith("revision-complete-dispatcher")
                && PAUSE.equals(value.getStringWithoutLengthUtf8(offset, length)))
            {
                paused.countDown();
                awaitQuietly(resume);
            }
            sink.accept(value, offset, length);
        });
        // A watch by index makes the dispatcher run the function on every event it routes.
        engine.watchPull(WatchRequest.byIndex("pauser", "never"));
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.key("rc/a")));
        final Doorbell doorbell = new Doorbell();
        final ReadyQueue<PullWatcher> ready = ReadyQueue.wakingWith(doorbell);
        final ReadyQueue.Entry<PullWatcher> entry = ready.entry(watcher);
        ShardBarrier.pass(engine);
        watcher.readyIn(entry);
        entry.unmark();

        final List<Op> puts = new ArrayList<>();
        puts.add(Op.put("rc/a", "v"));
        for (int i = 1; i < EVENTS; i++)
        {
            puts.add(Op.put(String.format("rc/b%05d", i), i == PAUSE_AT ? PAUSE : "v"));
        }
        final long revision = engine.txn(Txn.of(List.of(), puts, List.of())).revision();
        assertTrue(paused.await(30, TimeUnit.SECONDS), "the dispatcher reached the pausing event in its second cycle");

        // The first cycle handed the watcher its event and marked it; the revision is not whole yet.
        assertTrue(entry.isMarked(), "the first cycle marked the watcher it handed the event");
        entry.unmark();
        final RecordingListener into = new RecordingListener();
        assertEquals(1, watcher.poll(into, 100), "the watch's one event of the revision");
        assertTrue(watcher.position() < revision, "the revision is not whole while the dispatcher is inside it");

        resume.countDown();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!entry.isMarked() && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertTrue(entry.isMarked(), "the cycle that completed the revision marked the watcher (nothing else would)");
        assertTrue(watcher.position() >= revision, "marked once the revision is whole");
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(60, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
