package io.ringwatch.examples;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
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

import io.ringwatch.persistence.LogConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The README's demo: starts an in-memory engine, watches it with a push watcher on a prefix, a
 * pull watcher on one key, a list-then-watch on a range and a watcher that replays history,
 * writes through every write operation, and prints what each watcher saw; then a persistent
 * engine in a temporary directory: writes, restarts, reads the past and replays it from the log.
 */
public final class Demo
{
    private Demo()
    {
    }

    /**
     * @param args ignored.
     * @throws InterruptedException if interrupted while waiting for events.
     * @throws IOException          if the persistent part cannot use a temporary directory.
     */
    public static void main(final String[] args) throws InterruptedException, IOException
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
        durableDemo(out);
    }

    /**
     * A persistent engine: writes in SYNC mode, closes, reopens (recovery), reads the past and
     * replays it to a watcher from the revision log, far beyond its 16-event watch window.
     */
    private static void durableDemo(final PrintStream out) throws IOException, InterruptedException
    {
        final Path dir = Files.createTempDirectory("ringwatch-demo");
        final RingWatchConfig config = RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .windowCapacity(16, 16)
            .build();
        try
        {
            out.println();
            out.println("RingWatch demo, persistent: a revision log in " + dir);
            try (RingWatch engine = RingWatch.open(config))
            {
                for (int i = 1; i <= 100; i++)
                {
                    engine.put("/counter", Integer.toString(i));
                }
                out.println("wrote 100 revisions in SYNC mode, each acknowledged once on disk; closing");
            }
            try (RingWatch engine = RingWatch.open(config))
            {
                out.println("reopened: recovered revision " + engine.currentRevision() + ", /counter = " +
                    engine.get("/counter").map(KeyValue::valueAsString).orElse("?"));
                out.println("range at revision 42: " + engine.range(KeyRange.key("/counter"), 0, 42).kvs());
                final Printer history = new Printer(out, "history /counter ");
                history.quiet = true;
                final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.key("/counter")).startRevision(1), history);
                engine.put("/counter", "101");
                awaitProgress(engine.currentRevision(), watcher, history);
                out.println("a watch from revision 1 (the window holds 16 events) caught up from the log: " +
                    history.events + " events, revisions 1.." + history.completeUpTo);
            }
        }
        finally
        {
            deleteTree(dir);
        }
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
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
        private volatile long events;
        /** Counts events without printing them. */
        private boolean quiet;

        Printer(final PrintStream out, final String name)
        {
            this.out = out;
            this.name = name;
        }

        @Override
        public void onEvents(final EventBatch events)
        {
            this.events += events.size();
            for (int i = 0; i < events.size() && !quiet; i++)
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
