package io.ringwatch.engine.demo;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * The README's demo: starts an in-memory engine, watches it with a push watcher on a prefix, a
 * pull watcher on one key, a list-then-watch on a range and a watcher that replays history,
 * writes through every write operation, and prints what each watcher saw.
 */
public final class Demo
{
    private Demo()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException if interrupted while waiting for events.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final PrintStream out = System.out;
        try (RingWatch engine = RingWatch.open())
        {
            out.println("RingWatch demo: an in-memory engine, four watchers, a dozen writes");
            engine.put("/config/boot", "v0");

            final Printer podsPrinter = new Printer(out, "push  /pods/*    ");
            final Watcher pods = engine.watch(WatchRequest.of(KeyRange.prefix("/pods/")).withPrevKv(), podsPrinter);
            final PullWatcher leader = engine.watchPull(WatchRequest.of(KeyRange.key("/leader")));
            final Printer configPrinter = new Printer(out, "watch /config/*  ");
            final ListWatch<Watcher> config = engine.listAndWatch(WatchRequest.of(KeyRange.prefix("/config/")), configPrinter);
            out.println("list   /config/  snapshot at revision " + config.snapshot().revision() + ": " +
                config.snapshot().kvs());

            engine.put("/pods/a", "pending");
            engine.put("/pods/b", "pending");
            final WriteResult running = engine.put("/pods/a", "running");
            engine.put("/leader", "node-1");
            engine.put("/config/timeout", "30s");

            final WriteResult stale = engine.compareAndPut(Keys.utf8("/pods/a"), Keys.utf8("lost-update"), 1);
            final WriteResult fresh = engine.compareAndPut(Keys.utf8("/pods/a"), Keys.utf8("succeeded"), running.revision());
            out.println("compare-and-put with a stale revision applied? " + stale.succeeded() +
                "; with the current one? " + fresh.succeeded());

            engine.txn(Txn.of(
                List.of(Compare.value(Keys.utf8("/leader"), Compare.Result.EQUAL, Keys.utf8("node-1"))),
                List.of(Op.put("/leader", "node-2"), Op.put("/pods/c", "scheduled")),
                List.of()));
            engine.delete(KeyRange.prefix("/pods/"));

            final long last = engine.currentRevision();
            final Printer replayPrinter = new Printer(out, "replay /leader   ");
            final Watcher replay = engine.watch(WatchRequest.of(KeyRange.key("/leader")).startRevision(1), replayPrinter);

            awaitProgress(last, pods, podsPrinter);
            awaitProgress(last, config.watcher(), configPrinter);
            awaitProgress(last, replay, replayPrinter);
            final WatchResponse polled = leader.next(Duration.ofSeconds(1));
            for (final var event : polled.events())
            {
                out.println("pull  /leader    rev " + event.revision() + " " + event.type() + " " + event.kv().keyAsString() +
                    " = " + event.kv().valueAsString());
            }

            out.println("revision " + last + ", " + engine.size() + " keys left: " +
                engine.range(KeyRange.all(), 0).kvs().stream().map(KeyValue::toString).toList());
        }
        out.println("engine closed");
    }

    /** Asks for progress notifications until the watcher reports it is complete up to {@code revision}. */
    private static void awaitProgress(final long revision, final Watcher watcher, final Printer printer)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (printer.completeUpTo < revision && !watcher.isCancelled() && System.nanoTime() < deadline)
        {
            watcher.requestProgress();
            Thread.sleep(2);
        }
    }

    /** Prints each event; remembers the revision its watcher last reported complete. */
    private static final class Printer implements WatchListener
    {
        private final PrintStream out;
        private final String name;
        private volatile long completeUpTo;

        Printer(final PrintStream out, final String name)
        {
            this.out = out;
            this.name = name;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            for (int i = 0; i < events.size(); i++)
            {
                final WatchEvent event = events.get(i);
                out.println(name + " rev " + event.revision() + " " + event.toEvent());
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            completeUpTo = revision;
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            out.println(name + " ended: " + cancellation.reason());
        }
    }
}
