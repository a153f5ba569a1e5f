package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A progress notification never goes behind an event already delivered to the same watcher: after
 * an event of revision R + 1, no progress at R (a client-go reflector records a bookmark's revision
 * as its last synced one, so a bookmark behind an event makes it replay events on a re-watch).
 *
 * <p>The dispatcher routes at most 4,096 events a duty cycle, so a cycle can end inside a
 * revision: the shard then knows only the revision before complete. These tests make it end
 * there with the watcher's first change of the revision (of three, one transaction) routed and
 * the other two not, and a progress due right then: requested, or periodic. The dispatcher is
 * held inside an index function it runs (a watch by index makes it run one on every event), so
 * the order of cycles, commands and writes is fixed; waits only bound a failure, and a pause
 * outlasts the periodic interval so a tick is due at the cycle end. For a push watcher the
 * periodic case relies on ticks 300 ms apart to keep an earlier tick's marker out of the way (it
 * could only make the test pass where it should fail, never the reverse). Two more cases: a
 * watcher that rejoins ahead of its held shard after reading by cursor (the shard's progress
 * names a revision below what the cursor delivered), and a watcher reading the window by cursor
 * through three-change transactions (progress only between them).
 */
class ProgressOrderTest
{
    /** Changes per big transaction: more than one duty cycle (4,096) routes. */
    private static final int CHANGES = 6_000;
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Ticks far enough apart that none falls between a delivered one and the transaction's first cycle. */
    private static final Duration TICK = Duration.ofMillis(300);

    private final Map<String, CountDownLatch> reached = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> released = new ConcurrentHashMap<>();
    private RingWatch engine;

    /** How the watcher is read. */
    enum Kind
    {
        PUSH, POLL, NEXT
    }

    @AfterEach
    void close()
    {
        released.values().forEach(CountDownLatch::countDown);
        if (engine != null)
        {
            engine.close();
        }
    }

    /**
     * A requested progress the shard defers to the revision current at the request (P), then
     * answers in the cycle that completes P and runs on into P + 1, where the watcher's first
     * change of P + 1 is routed: the answer must not be P behind that event, nor P + 1 before the
     * transaction's last change of the watch.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aRequestedProgressIsNotDeliveredBehindTheFirstChangeOfARevision(final Kind kind) throws Exception
    {
        open(Duration.ofSeconds(10));
        final WatchRequest request = WatchRequest.of(KeyRange.prefix("a/"));
        final ProgressOrderAudit audit = new ProgressOrderAudit();
        final Reader reader = reader(kind, request, audit);
        ShardBarrier.pass(engine);

        // The dispatcher routes this put alone and stops inside it.
        engine.put("x", "pause-A");
        await("pause-A");
        final long p = engine.txn(bigTxn("f/", 100, "pause-B", List.of())).revision();
        // Taken at the next cycle's start with P published and not routed: deferred to P.
        reader.watcher.requestProgress();
        release("pause-A");
        // Stops in P's first cycle; P + 1 is published before the cycle that completes P.
        await("pause-B");
        final long next = engine.txn(bigTxn("g/", -1, null, List.of(0, 5_000, CHANGES - 1))).revision();
        assertEquals(p + 1, next);
        release("pause-B");

        reader.until(() -> audit.eventCount() >= 3 && audit.lastProgress() >= p);
        assertEquals(List.of(), audit.violations(), audit.toString());
        assertEquals(List.of(), audit.inexact(owed(next)), audit.toString());
        assertTrue(audit.progress().get(0)[1] == 0 || audit.progress().get(0)[1] == 3,
            "the answer comes before the transaction or after all three of its changes: " + audit);
    }

    /**
     * A periodic progress due at the end of a cycle that stopped inside a revision, after the
     * watcher's first change of it: no tick at the revision before behind that event.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aPeriodicProgressIsNotDeliveredBehindTheFirstChangeOfARevision(final Kind kind) throws Exception
    {
        open(TICK);
        final WatchRequest request = WatchRequest.of(KeyRange.prefix("a/")).withProgressNotify();
        final ProgressOrderAudit audit = new ProgressOrderAudit();
        final Reader reader = reader(kind, request, audit);
        ShardBarrier.pass(engine);
        // A tick's marker of the revision before the transaction, still queued, would take the
        // cycle end's tick into it (markers of one revision collapse): wait until one is delivered,
        // a tick apart from the next.
        reader.until(() -> audit.progress().size() >= 1);

        final long revision = engine.txn(bigTxn("g/", 1_000, "pause-C", List.of(0, 5_000, CHANGES - 1))).revision();
        await("pause-C");
        final long heldFrom = System.nanoTime();
        if (kind != Kind.PUSH)
        {
            // Polled while the shard is held: any marker before the first change goes with it.
            reader.until(() -> audit.eventCount() >= 1);
        }
        // The cycle's end falls after a tick is due: the shard knows only the revision before complete.
        while (System.nanoTime() - heldFrom < 2 * TICK.toNanos())
        {
            Thread.sleep(TICK.toMillis() / 4);
        }
        release("pause-C");

        reader.until(() -> audit.eventCount() >= 3 && audit.lastProgress() >= revision);
        assertEquals(List.of(), audit.violations(), audit.toString());
        assertEquals(List.of(), audit.inexact(owed(revision)), audit.toString());
    }

    /**
     * A watcher that read the window by cursor past where its shard has routed rejoins ahead of
     * the shard: the shard's progress owed at the rejoin names the revision it has routed, below
     * the events the cursor delivered, and must be raised to what the watcher has delivered, not
     * handed over below them. The shard is held while the watcher reads on by cursor, with a tick
     * due at the end of the held cycle (the watcher, off the routes then, is owed it at the rejoin).
     */
    @Test
    void aWatcherThatRejoinsAheadOfItsShardGetsNoProgressBehindWhatItReadByCursor() throws Exception
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("progress-order").dispatcherThreads(1)
            .watcherQueueDepth(4).progressNotifyInterval(Duration.ofMillis(50)).build());
        addPauser();
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("a/")).withProgressNotify());
        final ProgressOrderAudit audit = new ProgressOrderAudit();
        // Six events for a queue of four: the shard takes the watcher off the routes.
        engine.txn(Txn.of(List.of(), List.of(Op.put("a/1", "0"), Op.put("a/2", "0"), Op.put("a/3", "0")), List.of()));
        engine.txn(Txn.of(List.of(), List.of(Op.put("a/1", "1"), Op.put("a/2", "1"), Op.put("a/3", "1")), List.of()));
        ShardBarrier.pass(engine);

        engine.put("x", "pause-E");
        await("pause-E");
        final long heldFrom = System.nanoTime();
        engine.txn(Txn.of(List.of(), List.of(Op.put("a/1", "2"), Op.put("a/2", "2"), Op.put("a/3", "2")), List.of()));
        final long last = engine.txn(bigTxn("g/", -1, null, List.of(CHANGES - 1))).revision();
        // Read by cursor to the window's end, past the held shard, and ask to rejoin there.
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (audit.eventCount() < 10)
        {
            assertTrue(System.nanoTime() < deadline, "timed out: " + audit);
            watcher.poll(audit, 100);
        }
        watcher.poll(audit, 100);
        assertEquals(last, audit.events().get(9).revision(), audit.toString());
        while (System.nanoTime() - heldFrom < Duration.ofMillis(150).toNanos())
        {
            Thread.sleep(10);
        }
        release("pause-E");

        while (audit.lastProgress() < last)
        {
            assertTrue(System.nanoTime() < deadline, "timed out: " + audit);
            if (watcher.poll(audit, 100) == 0)
            {
                Thread.sleep(1);
            }
        }
        assertEquals(List.of(), audit.violations(), audit.toString());
        assertEquals(10, audit.eventCount(), audit.toString());
    }

    /**
     * Catch-up from the window by cursor: a pull watcher with a queue of 4 starts far behind, so it
     * reads by cursor, through transactions of three changes of the watch each, a progress asked
     * for before every poll of one event: every progress comes at a revision boundary. A request
     * reaches the cursor through the dispatcher, so a fast reader may finish before any is honoured
     * along the way; each attempt checks the order, and a fresh watcher tries again (up to 20) until
     * one has been given progress along the way, so the boundary rule is exercised and not vacuous.
     */
    @Test
    void aWatcherReadingByCursorReportsProgressOnlyAtRevisionBoundaries() throws Exception
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("progress-order").dispatcherThreads(1)
            .watcherQueueDepth(4).build());
        final long first = engine.currentRevision() + 1;
        for (int i = 0; i < 40; i++)
        {
            final String n = Integer.toString(i);
            engine.txn(Txn.of(List.of(), List.of(Op.put("a/1", n), Op.put("b/x", n), Op.put("a/2", n), Op.put("a/3", n)), List.of()));
        }
        final long last = engine.currentRevision();
        final List<String> attempts = new ArrayList<>();
        for (int attempt = 0; attempt < 20; attempt++)
        {
            final ProgressOrderAudit audit = catchUpByCursor(first, last);
            attempts.add(audit.toString());
            if (audit.progress().size() > 1)
            {
                return;
            }
        }
        fail("no attempt was given progress along the way: " + attempts);
    }

    private ProgressOrderAudit catchUpByCursor(final long first, final long last)
    {
        final ProgressOrderAudit audit = new ProgressOrderAudit();
        try (PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("a/")).startRevision(first)))
        {
            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (audit.eventCount() < 120 || audit.lastProgress() < last)
            {
                assertTrue(System.nanoTime() < deadline, "timed out: " + audit);
                watcher.requestProgress();
                watcher.poll(audit, 1);
            }
        }
        assertEquals(List.of(), audit.violations(), audit.toString());
        for (final long[] seen : audit.progress())
        {
            assertEquals(0, seen[1] % 3, "a progress between two changes of one transaction: " + audit);
        }
        assertEquals(120, audit.eventCount());
        for (int i = 0; i < 120; i++)
        {
            assertEquals(first + i / 3, audit.events().get(i).revision(), "event " + i);
        }
        return audit;
    }

    private void open(final Duration tick)
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("progress-order").dispatcherThreads(1)
            .progressNotifyInterval(tick).build());
        addPauser();
    }

    /** An index function that holds the dispatcher at a "pause-" value until released; a watch by index makes it run. */
    private void addPauser()
    {
        engine.addIndex("pauser", (value, offset, length, sink) ->
        {
            final String text = value.getStringWithoutLengthUtf8(offset, length);
            if (Thread.currentThread().getName().startsWith("progress-order-dispatcher") && text.startsWith("pause-"))
            {
                latch(reached, text).countDown();
                awaitQuietly(latch(released, text));
            }
            sink.accept(value, offset, length);
        });
        engine.watchPull(WatchRequest.byIndex("pauser", "never"));
    }

    /** The events of {@code revision} a prefix "a/" watch is owed (a/1, a/2, a/3), read back by a watch. */
    private List<Event> owed(final long revision)
    {
        final ProgressOrderAudit all = new ProgressOrderAudit();
        final PullWatcher history = engine.watchPull(WatchRequest.of(KeyRange.prefix("a/")).startRevision(revision));
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (all.eventCount() < 3)
        {
            assertTrue(System.nanoTime() < deadline, "the history of " + revision);
            history.poll(all, 10);
        }
        history.cancel();
        return all.events();
    }

    /**
     * One transaction of {@link #CHANGES} puts: {@code a/1}, {@code a/2}, {@code a/3} at the given
     * places, the pausing value at {@code pauseAt}, the rest under {@code filler}.
     */
    private static Txn bigTxn(final String filler, final int pauseAt, final String pause, final List<Integer> watched)
    {
        final List<Op> puts = new ArrayList<>(CHANGES);
        int a = 0;
        for (int i = 0; i < CHANGES; i++)
        {
            if (watched.contains(i))
            {
                puts.add(Op.put("a/" + ++a, "v"));
            }
            else
            {
                puts.add(Op.put(String.format("%s%05d", filler, i), i == pauseAt ? pause : "v"));
            }
        }
        return Txn.of(List.of(), puts, List.of());
    }

    private Reader reader(final Kind kind, final WatchRequest request, final ProgressOrderAudit audit)
    {
        if (kind == Kind.PUSH)
        {
            return new Reader(engine.watch(request, audit), null, kind, audit);
        }
        return new Reader(null, engine.watchPull(request), kind, audit);
    }

    private void await(final String pause) throws InterruptedException
    {
        assertTrue(latch(reached, pause).await(PATIENCE.toSeconds(), TimeUnit.SECONDS), "the dispatcher reached " + pause);
    }

    private void release(final String pause)
    {
        latch(released, pause).countDown();
    }

    private static CountDownLatch latch(final Map<String, CountDownLatch> latches, final String name)
    {
        return latches.computeIfAbsent(name, n -> new CountDownLatch(1));
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

    /** Reads the watcher under test the way its kind is read; a push watcher reads itself. */
    private static final class Reader
    {
        final Watcher watcher;
        private final PullWatcher pull;
        private final Kind kind;
        private final ProgressOrderAudit audit;

        Reader(final Watcher push, final PullWatcher pull, final Kind kind, final ProgressOrderAudit audit)
        {
            this.watcher = push != null ? push : pull;
            this.pull = pull;
            this.kind = kind;
            this.audit = audit;
        }

        void until(final BooleanSupplier done) throws InterruptedException
        {
            final long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (!done.getAsBoolean())
            {
                assertTrue(System.nanoTime() < deadline, "timed out: " + audit);
                if (kind == Kind.POLL)
                {
                    if (pull.poll(audit, 100) == 0)
                    {
                        Thread.sleep(1);
                    }
                }
                else if (kind == Kind.NEXT)
                {
                    audit.take(pull.next(Duration.ofMillis(10)));
                }
                else
                {
                    Thread.sleep(1);
                }
            }
        }
    }
}
