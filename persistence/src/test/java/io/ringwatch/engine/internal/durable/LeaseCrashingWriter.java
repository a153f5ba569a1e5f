package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.LeaseExistsException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

/**
 * The child process of {@link LeaseKillNineTest}: opens a persistent engine in SYNC mode, makes sure
 * leases 1 to {@link #LEASES} live (TTL {@link #TTL_SECONDS} s), then puts until it is killed, up to
 * {@link #IN_FLIGHT} at once, printing each acknowledged revision ({@code ack R}). Write number n
 * (counted over every run; a grant makes no revision, so write n is revision n) puts
 * {@code "k" + n % KEYS} to {@code "v" + n} attached to lease {@code n % (LEASES + 1)} (0: none, which
 * detaches the key), so the parent can say which key any revision leaves on which lease.
 */
public final class LeaseCrashingWriter
{
    static final int KEYS = 61;
    static final int LEASES = 7;
    static final long TTL_SECONDS = 3_600;
    static final int IN_FLIGHT = 32;

    private LeaseCrashingWriter()
    {
    }

    /**
     * @param args the data directory and the snapshot interval in revisions.
     */
    public static void main(final String[] args)
    {
        final PrintStream out = System.out;
        final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(Path.of(args[0])).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(Long.parseLong(args[1]))
            .build());
        for (long id = 1; id <= LEASES; id++)
        {
            try
            {
                engine.leases().grant(id, TTL_SECONDS);
            }
            catch (final LeaseExistsException recovered)
            {
                // Granted by an earlier run and recovered: as it should be.
            }
        }
        out.println("open " + engine.currentRevision());
        out.flush();
        final Semaphore inFlight = new Semaphore(IN_FLIGHT);
        for (long n = engine.currentRevision() + 1; ; n++)
        {
            inFlight.acquireUninterruptibly();
            engine.writeAsync(Op.put("k" + n % KEYS, "v" + n).withLease(n % (LEASES + 1))).whenComplete((result, failure) ->
            {
                inFlight.release();
                if (result != null)
                {
                    out.println("ack " + result.revision());
                }
            });
        }
    }
}
