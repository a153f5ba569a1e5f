package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress is exact: a progress notification with revision R reaches a watcher only after every
 * event up to R it is owed, for push, poll and next watchers, in memory and over a revision log,
 * while prefix deletes put more events in one revision than a dispatcher routes in one duty
 * cycle, periodic progress fires every millisecond, progress is requested all the time, and
 * shallow queues send watchers to read by cursor and rejoin. Every watcher also sees exactly the
 * reference sequence of events. Randomized: prints its seed (rerun with -Dringwatch.seed=...);
 * longer with -Dringwatch.long=true.
 */
class ExactProgressTest
{
    private static final boolean LONG = Boolean.getBoolean("ringwatch.long");
    private static final int ROUNDS = LONG ? 20 : 1;
    private static final int PREFIX_DELETES = LONG ? 3 : 1;
    private static final int[] DEPTHS = {4, 64, 1024, 1 << 16};

    @TempDir
    Path dir;

    @Test
    void noProgressRunsAheadOfAnEventInMemory() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("ExactProgressTest memory seed=" + seed + " (rerun with -Dringwatch.seed=" + seed + ")");
        final Random random = new Random(seed);
        // Deep queues keep watchers on the routes through a prefix delete (the dispatcher's duty
        // cycle ends inside its revision); shallow ones send them to read by cursor.
        final RingWatchConfig deep = baseConfig(random).watcherQueueDepth(1 << 16).build();
        run(random, PREFIX_DELETES, () -> RingWatch.open(deep));
        final RingWatchConfig shallow = baseConfig(random).build();
        run(random, PREFIX_DELETES, () -> RingWatch.open(shallow));
    }

    @Test
    void noProgressRunsAheadOfAnEventOverTheRevisionLog() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        System.out.println("ExactProgressTest persistent seed=" + seed + " (rerun with -Dringwatch.seed=" + seed + ")");
        final Random random = new Random(seed);
        // A window too small for a prefix delete: watchers read the log too.
        final boolean smallWindow = random.nextBoolean();
        final RingWatchConfig.Builder builder = baseConfig(random)
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.ASYNC).build());
        if (smallWindow)
        {
            builder.windowCapacity(1024, 1024).windowFreshness(Duration.ofNanos(1));
        }
        final RingWatchConfig config = builder.build();
        System.out.println("ExactProgressTest persistent smallWindow=" + smallWindow);
        run(random, PREFIX_DELETES, () -> RingWatch.open(config));
    }

    private static RingWatchConfig.Builder baseConfig(final Random random)
    {
        final int depth = DEPTHS[random.nextInt(DEPTHS.length)];
        System.out.println("ExactProgressTest depth=" + depth);
        return RingWatchConfig.builder()
            .windowCapacity(1 << 16, 1 << 18)
            .progressNotifyInterval(Duration.ofMillis(1))
            .watcherQueueDepth(depth)
            .dispatcherThreads(1 + random.nextInt(2))
            .deliveryThreads(1 + random.nextInt(2));
    }

    private void run(final Random random, final int prefixDeletes, final Supplier<RingWatch> engines) throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            try (RingWatch engine = engines.get())
            {
                runRound(random, prefixDeletes, engine);
            }
        }
    }

    private static void runRound(final Random random, final int prefixDeletes, final RingWatch engine) throws Exception
    {
        final long start = engine.currentRevision() + 1;
        final KeyRange[] ranges = {KeyRange.prefix("/p/"), KeyRange.all()};
        final List<Log> logs = new ArrayList<>();
        final List<Watcher> watchers = new ArrayList<>();
        final List<Thread> consumers = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        for (final KeyRange range : ranges)
        {
            final WatchRequest request = WatchRequest.of(range).startRevision(start).withProgressNotify();
            final Log push = new Log("push " + range, range);
            watchers.add(engine.watch(request, push));
            logs.add(push);

            final Log polled = new Log("poll " + range, range);
            final PullWatcher poll = engine.watchPull(request);
            watchers.add(poll);
            logs.add(polled);
            consumers.add(new Thread(() ->
            {
                while (!stop.get())
                {
                    if (poll.poll(polled, 1 + random(polled).nextInt(300)) == 0)
                    {
                        LockSupport.parkNanos(100_000);
                    }
                }
            }));

            final Log nexted = new Log("next " + range, range);
            final PullWatcher next = engine.watchPull(request);
            watchers.add(next);
            logs.add(nexted);
            consumers.add(new Thread(() ->
            {
                try
                {
                    while (!stop.get())
                    {
                        nexted.record(next.next(Duration.ofMillis(5)));
                    }
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        consumers.add(new Thread(() ->
        {
            final Random requests = new Random(random(logs.get(0)).nextLong());
            while (!stop.get())
            {
                watchers.get(requests.nextInt(watchers.size())).requestProgress();
                LockSupport.parkNanos(20_000);
            }
        }));
        consumers.forEach(Thread::start);

        final List<Expected> reference = new ArrayList<>();
        final TreeSet<String> underP = new TreeSet<>();
        final List<CompletableFuture<Expected>> inFlight = new ArrayList<>();
        for (int d = 0; d < prefixDeletes; d++)
        {
            // More keys under /p/ than a dispatcher routes in one duty cycle (4096): the delete's
            // one revision spans duty cycles.
            final int keys = 4500 + random.nextInt(1000);
            for (int i = 0; underP.size() < keys; i++)
            {
                final String key = random.nextInt(8) == 0 ? "/q/" + random.nextInt(50) : String.format("/p/%05d", i);
                final String value = "v" + i;
                inFlight.add(engine.writeAsync(Op.put(key, value)).thenApply(r -> new Expected(r.revision(), key, EventType.PUT)));
                if (inFlight.size() == 256)
                {
                    awaitAll(inFlight, reference);
                }
                if (key.startsWith("/p/"))
                {
                    underP.add(key);
                }
            }
            awaitAll(inFlight, reference);
            final long revision = engine.delete(KeyRange.prefix("/p/")).revision();
            for (final String key : underP)
            {
                reference.add(new Expected(revision, key, EventType.DELETE));
            }
            underP.clear();
        }

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (final Log log : logs)
        {
            final long owed = reference.stream().filter(e -> log.range.contains(e.key.getBytes(StandardCharsets.UTF_8))).count();
            while (log.events() < owed && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
        }
        stop.set(true);
        for (final Thread consumer : consumers)
        {
            consumer.join(TimeUnit.SECONDS.toMillis(10));
        }
        for (final Log log : logs)
        {
            log.check(reference);
        }
    }

    private static void awaitAll(final List<CompletableFuture<Expected>> inFlight, final List<Expected> into)
    {
        final List<Expected> done = new ArrayList<>();
        for (final CompletableFuture<Expected> write : inFlight)
        {
            done.add(write.join());
        }
        done.sort(Comparator.comparingLong(Expected::revision));
        into.addAll(done);
        inFlight.clear();
    }

    private static Random random(final Log log)
    {
        return log.random;
    }

    private record Expected(long revision, String key, EventType type)
    {
    }

    /** What one watcher received, in order: events and progress revisions. */
    private static final class Log implements WatchListener
    {
        private final String name;
        private final KeyRange range;
        private final Random random = new Random();
        private final List<Object> entries = new ArrayList<>();
        private int events;
        private WatchCancellation cancellation;

        Log(final String name, final KeyRange range)
        {
            this.name = name;
            this.range = range;
        }

        @Override
        public synchronized void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final WatchEvent event = batch.get(i);
                entries.add(event.toEvent());
                events++;
            }
        }

        @Override
        public synchronized void onProgress(final long revision)
        {
            entries.add(revision);
        }

        @Override
        public synchronized void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        synchronized void record(final WatchResponse response)
        {
            // Each progress mark where it fell among the events, as poll would have handed them over.
            response.inOrder(entries::addAll, entries::add);
            events += response.events().size();
            if (response.cancellation() != null)
            {
                cancellation = response.cancellation();
            }
        }

        synchronized int events()
        {
            return events;
        }

        synchronized void check(final List<Expected> reference)
        {
            assertNull(cancellation, name + " was cancelled");
            final List<Expected> owed = new ArrayList<>();
            for (final Expected expected : reference)
            {
                if (range.contains(expected.key.getBytes(StandardCharsets.UTF_8)))
                {
                    owed.add(expected);
                }
            }
            final List<Expected> got = new ArrayList<>();
            int progressCount = 0;
            for (final Object entry : entries)
            {
                if (entry instanceof Event)
                {
                    final Event event = (Event)entry;
                    got.add(new Expected(event.revision(), new String(event.kv().key(), StandardCharsets.UTF_8), event.type()));
                    continue;
                }
                final long progress = (Long)entry;
                progressCount++;
                final long owedUpTo = owed.stream().filter(e -> e.revision <= progress).count();
                final long gotUpTo = got.stream().filter(e -> e.revision <= progress).count();
                assertEquals(owedUpTo, gotUpTo, name + ": progress " + progress + " arrived after " + gotUpTo +
                    " of the " + owedUpTo + " events up to it");
            }
            assertEquals(sorted(owed), sorted(got), name + ": the events differ from the reference");
            assertTrue(progressCount > 0, name + " got no progress");
        }

        /** Within one revision the order is the writer's; compare each revision's events as a set. */
        private static List<String> sorted(final List<Expected> events)
        {
            final List<String> out = new ArrayList<>();
            int i = 0;
            while (i < events.size())
            {
                final long revision = events.get(i).revision;
                final TreeSet<String> keys = new TreeSet<>();
                while (i < events.size() && events.get(i).revision == revision)
                {
                    keys.add(events.get(i).type + " " + events.get(i).key);
                    i++;
                }
                for (final String key : keys)
                {
                    out.add(revision + " " + key);
                }
            }
            return out;
        }
    }
}
