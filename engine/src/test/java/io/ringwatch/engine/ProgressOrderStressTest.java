package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.WatchResponse;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress order under load: writer threads commit transactions of random size (one change to
 * over a duty cycle's 4,096, so cycles end inside revisions), while push watchers (some slow),
 * pull watchers read by {@code poll} and by {@code next}, with queues short enough that the slow
 * ones fall behind and read by cursor, take periodic progress every millisecond and a thread asks them for
 * progress at random. For every watcher: no progress below an event or a progress delivered
 * before it, a progress at R only after every event up to R it is owed, and every event it is
 * owed. The default run is a short smoke (a few seconds); {@code -Dringwatch.long=true} runs
 * longer rounds. The seed is printed; {@code -Dringwatch.seed=N} repeats its choices (thread
 * interleavings still vary).
 */
class ProgressOrderStressTest
{
    private static final boolean LONG = Boolean.getBoolean("ringwatch.long");
    private static final int ROUNDS = LONG ? 5 : 1;
    private static final int WRITERS = 2;
    private static final int TXNS_PER_WRITER = LONG ? 2_000 : 250;
    private static final int PREFIXES = 4;

    @Test
    void progressIsNeverBehindAnEventNorAheadOfOneUnderConcurrentTxnsAndRequests() throws Exception
    {
        final long firstSeed = Long.getLong("ringwatch.seed", System.nanoTime());
        for (int round = 0; round < ROUNDS; round++)
        {
            final long seed = firstSeed + round;
            System.out.println("ProgressOrderStressTest seed=" + seed + " (rerun with -Dringwatch.seed=" + seed + ")");
            runRound(seed);
        }
    }

    private void runRound(final long seed) throws Exception
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("progress-stress").dispatcherThreads(2)
            .deliveryThreads(2).windowCapacity(1 << 12, LONG ? 1 << 19 : 1 << 17).watcherQueueDepth(256).progressNotifyInterval(Duration.ofMillis(1)).build()))
        {
            final Random random = new Random(seed);
            final long first = engine.currentRevision() + 1;
            // The changes each revision made under each prefix, for what every watcher is owed.
            final Map<Long, int[]> written = new ConcurrentSkipListMap<>();
            final List<Subject> subjects = new ArrayList<>();
            for (int i = 0; i < 12; i++)
            {
                final int prefix = i % (PREFIXES + 1);
                final WatchRequest request = WatchRequest.of(KeyRange.prefix(prefix == PREFIXES ? "p" : "p" + prefix + "/"))
                    .withProgressNotify().startRevision(first);
                final ProgressOrderAudit audit = new ProgressOrderAudit(false);
                final int kind = i % 3;
                final Watcher watcher = kind == 0
                    ? engine.watch(request, random.nextBoolean() ? audit : new Slow(audit, new Random(seed + i)))
                    : engine.watchPull(request);
                subjects.add(new Subject(watcher, prefix, kind, audit));
            }
            final AtomicBoolean running = new AtomicBoolean(true);
            final List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++)
            {
                final Random writes = new Random(seed * 31 + w);
                final int writer = w;
                threads.add(new Thread(() -> write(engine, writes, writer, written), "progress-stress-writer-" + w));
            }
            final Thread reader = new Thread(() -> read(subjects, running), "progress-stress-reader");
            final Random asks = new Random(seed * 17);
            final Thread asker = new Thread(() ->
            {
                while (running.get())
                {
                    subjects.get(asks.nextInt(subjects.size())).watcher.requestProgress();
                    LockSupport.parkNanos(asks.nextInt(200_000));
                }
            }, "progress-stress-asker");
            threads.forEach(Thread::start);
            reader.start();
            asker.start();
            for (final Thread t : threads)
            {
                t.join();
            }
            final long last = engine.currentRevision();
            final Owed owed = new Owed(written);
            final long deadline = System.nanoTime() + Duration.ofSeconds(LONG ? 120 : 60).toNanos();
            for (final Subject s : subjects)
            {
                final int all = owed.upTo(s.prefix, last);
                while ((s.audit.eventCount() < all || s.audit.lastProgress() < last) && s.audit.cancellation() == null)
                {
                    assertTrue(System.nanoTime() < deadline, "timed out: " + s + ", owed " + all + " events and progress "
                        + last + ", seed " + seed);
                    s.watcher.requestProgress();
                    Thread.sleep(1);
                }
            }
            running.set(false);
            reader.join();
            asker.join();
            for (final Subject s : subjects)
            {
                assertNull(s.audit.cancellation(), s + ", seed " + seed);
                assertEquals(List.of(), s.audit.violations(), s + ", seed " + seed);
                assertEquals(owed.upTo(s.prefix, last), s.audit.eventCount(), s + ", seed " + seed);
                long previous = 0;
                for (final long[] progress : s.audit.progress())
                {
                    final int upTo = owed.upTo(s.prefix, progress[0]);
                    assertTrue(progress[1] >= upTo, "progress " + progress[0] + " after " + progress[1] + " events, but "
                        + upTo + " are at or below it: " + s + ", seed " + seed);
                    assertTrue(progress[0] >= previous, s + ", seed " + seed);
                    previous = progress[0];
                }
                s.watcher.cancel();
            }
        }
    }

    /**
     * Transactions of distinct new keys spread over the prefixes, mostly small; now and then one
     * over a duty cycle, mostly of keys no watcher watches with a few watched ones among them, so
     * that a cycle ends inside it with part of it queued for a watcher and the rest not.
     */
    private static void write(final RingWatch engine, final Random random, final int writer, final Map<Long, int[]> written)
    {
        for (int t = 0; t < TXNS_PER_WRITER; t++)
        {
            final int dice = random.nextInt(100);
            final boolean big = dice >= 95;
            final int size = dice < 50 ? 1 : dice < 75 ? 3 : big ? 4_097 + random.nextInt(2_000) : 2 + random.nextInt(60);
            final int[] counts = new int[PREFIXES];
            final List<Op> puts = new ArrayList<>(size);
            for (int i = 0; i < size; i++)
            {
                final String key = "w" + writer + "t" + t + "c" + i;
                if (big && random.nextInt(1_000) != 0)
                {
                    puts.add(Op.put("q/" + key, "v"));
                    continue;
                }
                final int prefix = random.nextInt(PREFIXES);
                counts[prefix]++;
                puts.add(Op.put("p" + prefix + "/" + key, "v"));
            }
            written.put(engine.txn(Txn.of(List.of(), puts, List.of())).revision(), counts);
        }
    }

    /** What each watcher is owed up to a revision: counts summed over the revisions written, looked up by binary search. */
    private static final class Owed
    {
        private final long[] revisions;
        /** [i][p]: the changes under prefix p (PREFIXES: all of them) of revisions[0..i]. */
        private final int[][] through;

        Owed(final Map<Long, int[]> written)
        {
            revisions = new long[written.size()];
            through = new int[written.size()][PREFIXES + 1];
            int i = 0;
            for (final Map.Entry<Long, int[]> entry : written.entrySet())
            {
                revisions[i] = entry.getKey();
                for (int p = 0; p < PREFIXES; p++)
                {
                    through[i][p] = (i == 0 ? 0 : through[i - 1][p]) + entry.getValue()[p];
                    through[i][PREFIXES] += through[i][p];
                }
                i++;
            }
        }

        /** @return the events a watcher of {@code prefix} (PREFIXES: all of them) is owed up to {@code revision}. */
        int upTo(final int prefix, final long revision)
        {
            final int at = Arrays.binarySearch(revisions, revision);
            final int last = at >= 0 ? at : -at - 2;
            return last < 0 ? 0 : through[last][prefix];
        }
    }

    /** Polls the pull watchers (kind 1 by poll, kind 2 by next) until told to stop. */
    private static void read(final List<Subject> subjects, final AtomicBoolean running)
    {
        try
        {
            while (running.get())
            {
                int taken = 0;
                for (final Subject s : subjects)
                {
                    if (s.kind == 1)
                    {
                        taken += ((PullWatcher)s.watcher).poll(s.audit, 97);
                    }
                    else if (s.kind == 2)
                    {
                        final WatchResponse response = ((PullWatcher)s.watcher).next(Duration.ZERO);
                        taken += response.isEmpty() ? 0 : 1;
                        s.audit.take(response);
                    }
                }
                if (taken == 0)
                {
                    LockSupport.parkNanos(100_000);
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A push listener that now and then takes a millisecond over a batch, so that its watcher falls behind. */
    private static final class Slow implements WatchListener
    {
        private final ProgressOrderAudit audit;
        private final Random random;

        Slow(final ProgressOrderAudit audit, final Random random)
        {
            this.audit = audit;
            this.random = random;
        }

        @Override
        public void onEvents(final EventBatch batch)
        {
            if (random.nextInt(20) == 0)
            {
                LockSupport.parkNanos(1_000_000);
            }
            audit.onEvents(batch);
        }

        @Override
        public void onProgress(final long revision)
        {
            audit.onProgress(revision);
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            audit.onCancelled(cancellation);
        }
    }

    /** One watcher under test: how it is read and what it watches. */
    private record Subject(Watcher watcher, int prefix, int kind, ProgressOrderAudit audit)
    {
        @Override
        public String toString()
        {
            return "watcher of prefix " + (prefix == PREFIXES ? "p" : "p" + prefix + "/") + " read "
                + (kind == 0 ? "by push" : kind == 1 ? "by poll" : "by next") + ": " + audit;
        }
    }
}
