package io.ringwatch.jmh.isolation;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Issue 11's burst: {@code watchers} prevKv push watchers on one prefix while {@code producers}
 * threads put {@code puts} keys into it as fast as they can, in memory, with a window sized to hold
 * the whole burst. Each watcher must get every event, in revision order, each with the previous
 * key-value whenever its key existed; or, if the window could not serve it, a cancel naming a
 * revision it resumes from, after which it must get the rest (in order; its prevKvs unchecked). Prints how the watchers ended, what
 * the resumed ones got, the burst's rate and the time until every watcher had everything. Exits
 * with 1 if any watcher missed, repeated or disordered an event. Not a JMH benchmark: a
 * standalone program.
 *
 * <pre>
 * java $FLAGS -Xmx4g -cp jmh/target/benchmarks.jar io.ringwatch.jmh.isolation.PrevKvBurstRun \
 *     [watchers=800] [puts=200000] [producers=4]
 * </pre>
 */
public final class PrevKvBurstRun
{
    private static final int KEYS = 10_000;
    private static final long PATIENCE_SECONDS = 600;

    private PrevKvBurstRun()
    {
    }

    /**
     * @param args watchers, puts, producer threads; defaults 800, 200000, 4.
     * @throws InterruptedException if interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final int watchers = args.length > 0 ? Integer.parseInt(args[0]) : 800;
        final int puts = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        final int producers = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        final int window = Integer.highestOneBit(puts * 2 - 1);
        final RingWatchConfig config = RingWatchConfig.builder().windowCapacity(window, window).build();
        try (RingWatch engine = RingWatch.open(config))
        {
            final Counter[] counters = new Counter[watchers];
            final Watcher[] handles = new Watcher[watchers];
            final WatchRequest request = WatchRequest.of(KeyRange.prefix("burst/")).withPrevKv();
            for (int i = 0; i < watchers; i++)
            {
                counters[i] = new Counter(1);
                handles[i] = engine.watch(request.startRevision(1), counters[i]);
            }
            final long start = System.nanoTime();
            final Thread[] threads = new Thread[producers];
            for (int p = 0; p < producers; p++)
            {
                final int producer = p;
                threads[p] = new Thread(() ->
                {
                    final byte[] value = new byte[64];
                    for (int i = producer; i < puts; i += producers)
                    {
                        engine.put(("burst/" + (i % KEYS)).getBytes(StandardCharsets.US_ASCII), value);
                    }
                });
                threads[p].start();
            }
            for (final Thread thread : threads)
            {
                thread.join();
            }
            final long burstNanos = System.nanoTime() - start;
            final long last = engine.currentRevision();

            final Map<String, Integer> endings = new TreeMap<>();
            int resumed = 0;
            for (int i = 0; i < watchers; i++)
            {
                final WatchCancellation ending = counters[i].awaitEnd(last);
                endings.merge(ending == null ? "every event" : ending.reason().name(), 1, Integer::sum);
                if (ending != null && (ending.reason() == CancelReason.LAPPED || ending.reason() == CancelReason.REVISION_UNAVAILABLE))
                {
                    final Counter resume = new Counter(ending.compactRevision());
                    handles[i] = engine.watch(request.startRevision(ending.compactRevision()), resume);
                    counters[i] = resume;
                    final WatchCancellation again = resume.awaitEnd(last);
                    endings.merge(again == null ? "resumed, then every event" : "resumed, then " + again.reason(), 1, Integer::sum);
                    resumed++;
                }
            }
            final long allNanos = System.nanoTime() - start;
            int broken = 0;
            for (final Counter counter : counters)
            {
                broken += counter.failures;
            }
            System.out.printf("%d prevKv watchers, %,d puts from %d producers into a %,d-event window: burst %,.0f puts/s, " +
                "every watcher done after %,d ms; endings %s; resumed %d; watchers with a missing, repeated, " +
                "disordered event or a missing prevKv: %d%n", watchers, puts, producers, window,
                puts / (burstNanos / 1e9), TimeUnit.NANOSECONDS.toMillis(allNanos), endings, resumed, broken);
            if (broken > 0)
            {
                System.exit(1);
            }
        }
    }

    /** Checks one watcher's stream: every revision once and in order, prevKv present exactly when the key existed. */
    private static final class Counter implements WatchListener
    {
        private final boolean[] keySeen = new boolean[KEYS];
        /** Only a stream from revision 1 knows which keys existed before each event. */
        private final boolean checkPrevKv;
        private long nextRevision;
        private volatile long lastRevision;
        private volatile WatchCancellation cancellation;
        private int failures;

        Counter(final long from)
        {
            this.nextRevision = from;
            this.lastRevision = from - 1;
            this.checkPrevKv = from == 1;
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final WatchEvent event = batch.get(i);
                if (event.revision() != nextRevision)
                {
                    failures = 1;
                }
                final int key = keyOf(event);
                if (checkPrevKv && event.hasPrevKv() != keySeen[key])
                {
                    failures = 1;
                }
                keySeen[key] = true;
                nextRevision = event.revision() + 1;
            }
            lastRevision = nextRevision - 1;
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        WatchCancellation awaitEnd(final long last) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (lastRevision < last && cancellation == null && System.nanoTime() < deadline)
            {
                Thread.sleep(Duration.ofMillis(5).toMillis());
            }
            if (lastRevision < last && cancellation == null)
            {
                failures = 1;
            }
            return lastRevision >= last ? null : cancellation;
        }

        private static int keyOf(final WatchEvent event)
        {
            int key = 0;
            for (int i = "burst/".length(); i < event.keyLength(); i++)
            {
                key = key * 10 + (event.keyBuffer().getByte(i) - '0');
            }
            return key;
        }
    }
}
