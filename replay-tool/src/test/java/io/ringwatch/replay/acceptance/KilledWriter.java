package io.ringwatch.replay.acceptance;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

/**
 * The child of {@link ReplayToolOnLiveAndKilledLogsTest}: an ASYNC engine (the default) whose log
 * rolls every {@link #ROLL_EVERY} writes on its own clock, writing puts of values from 1 byte to
 * 16 KiB (so that a kill lands inside an excerpt's bytes often), prefix deletes, and puts attached
 * to leases it grants and revokes; each acknowledged write printed as {@code ack R}. Runs until
 * killed.
 */
public final class KilledWriter
{
    static final int KEYS = 50;
    static final int ROLL_EVERY = 200;

    private KilledWriter()
    {
    }

    /**
     * @param args the data directory and the seed.
     */
    public static void main(final String[] args)
    {
        final PrintStream out = System.out;
        final Random random = new Random(Long.parseLong(args[1]));
        final AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        final RingWatch engine = RingWatch.open(config(Path.of(args[0]), clock));
        final Semaphore inFlight = new Semaphore(16);
        long lease = engine.leases().grant(3_600).id();
        for (long n = 1; ; n++)
        {
            inFlight.acquireUninterruptibly();
            final int choice = random.nextInt(100);
            final Op op;
            if (choice < 3)
            {
                op = Op.delete(KeyRange.prefix("/k/1"));
            }
            else if (choice < 15)
            {
                op = Op.put("/lease/" + random.nextInt(KEYS), "l" + n).withLease(lease);
            }
            else
            {
                op = Op.put("/k/" + random.nextInt(KEYS), "v" + n + "-" + "x".repeat(random.nextInt(random.nextBoolean() ? 64 : 16 * 1024)));
            }
            engine.writeAsync(op).whenComplete((result, failure) ->
            {
                inFlight.release();
                if (result != null)
                {
                    synchronized (out)
                    {
                        out.println("ack " + result.revision());
                    }
                }
            });
            if (n % 500 == 0)
            {
                engine.leases().revoke(lease);
                lease = engine.leases().grant(3_600).id();
            }
            if (n % ROLL_EVERY == 0)
            {
                clock.addAndGet(1_000);
            }
        }
    }

    /** The engine's configuration: an ASYNC log on its own clock, rolling every second of it. */
    static RingWatchConfig config(final Path dir, final AtomicLong clock)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).rollCycle(TestRollCycles.TEST_SECONDLY).clockMillis(clock::get).blockSize(1 << 20).build())
            .snapshotEveryRevisions(1_000)
            .build();
    }
}
