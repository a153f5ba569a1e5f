package io.ringwatch.engine.acceptance;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RetentionPolicy;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

/**
 * The child process of {@link KillDuringCompactionTest}: a SYNC engine whose log rolls every
 * {@link #ROLL_EVERY} writes (a second of its own clock) and keeps one revision past the compaction point and the newest snapshot, so retention deletes
 * files all the time. Write number n puts {@code "k" + n % KEYS} to {@code "v" + n} (up to
 * {@link #IN_FLIGHT} at once, each acknowledged as {@code ack R}); every {@link #COMPACT_EVERY}
 * writes it compacts to 100 revisions behind the current one; a snapshot every
 * {@link #SNAPSHOT_EVERY} revisions. Runs until killed.
 */
public final class CompactingWriter
{
    static final int KEYS = 97;
    static final int IN_FLIGHT = 32;
    static final int COMPACT_EVERY = 64;
    static final int SNAPSHOT_EVERY = 400;
    static final int ROLL_EVERY = 100;

    private CompactingWriter()
    {
    }

    /**
     * @param args the data directory and the epoch milliseconds its log's clock starts at.
     */
    public static void main(final String[] args)
    {
        final PrintStream out = System.out;
        // The log's clock moves a second every ROLL_EVERY writes, so the log rolls at a pace that
        // does not depend on the machine's speed.
        final AtomicLong clock = new AtomicLong(Long.parseLong(args[1]));
        final RingWatch engine = RingWatch.open(config(Path.of(args[0]), clock::get));
        out.println("open " + engine.currentRevision());
        out.flush();
        final Semaphore inFlight = new Semaphore(IN_FLIGHT);
        for (long n = engine.currentRevision() + 1; ; n++)
        {
            inFlight.acquireUninterruptibly();
            engine.writeAsync(Op.put("k" + n % KEYS, "v" + n)).whenComplete((result, failure) ->
            {
                inFlight.release();
                if (result != null)
                {
                    out.println("ack " + result.revision());
                }
            });
            if (n % ROLL_EVERY == 0)
            {
                clock.addAndGet(1_000);
            }
            if (n % COMPACT_EVERY == 0)
            {
                final long point = engine.currentRevision() - 100;
                if (point > engine.compactRevision())
                {
                    engine.compact(point);
                }
            }
        }
    }

    /** The engine both the child and the reopening test use, its log's clock {@code clockMillis}. */
    static RingWatchConfig config(final Path dir, final LongSupplier clockMillis)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).rollCycle(TestRollCycles.TEST_SECONDLY)
                .clockMillis(clockMillis)
                .retention(RetentionPolicy.keepAll().keepRevisions(1)).build())
            .snapshotEveryRevisions(SNAPSHOT_EVERY)
            .build();
    }
}
