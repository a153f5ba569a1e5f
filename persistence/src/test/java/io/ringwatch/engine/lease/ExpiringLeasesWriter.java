package io.ringwatch.engine.lease;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Random;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;

/**
 * The child of {@link LeaseExpiryKillNineTest}: an ASYNC engine (the default durability) granting
 * 1 s leases, each with three keys {@code /l/<id>/a..c} attached, one in five revoked at once; it
 * prints {@code lease <id>} once the keys are acknowledged, {@code gone <id>} once a revoke
 * returned or {@code timeToLive} answered not found (the keys are then deleted, as the README
 * promises) and a later write was acknowledged, and {@code ack <revision>} for every acknowledged write. Runs until killed.
 */
public final class ExpiringLeasesWriter
{
    private ExpiringLeasesWriter()
    {
    }

    /**
     * @param args the data directory and a seed.
     */
    public static void main(final String[] args)
    {
        final PrintStream out = System.out;
        final Random random = new Random(Long.parseLong(args[1]));
        final RingWatch engine = RingWatch.open(config(Path.of(args[0])));
        final ArrayDeque<Long> live = new ArrayDeque<>();
        while (true)
        {
            final long id = engine.leases().grant(1).id();
            long revision = 0;
            for (final String k : new String[] {"a", "b", "c"})
            {
                revision = engine.write(Op.put("/l/" + id + "/" + k, "v").withLease(id)).revision();
            }
            out.println("ack " + revision);
            out.println("lease " + id);
            if (random.nextInt(5) == 0)
            {
                engine.leases().revoke(id);
                out.println("gone " + id);
            }
            else
            {
                live.addLast(id);
            }
            // Whatever expired meanwhile.
            for (int i = live.size(); i > 0; i--)
            {
                final long old = live.pollFirst();
                try
                {
                    engine.leases().timeToLive(old, false);
                    live.addLast(old);
                }
                catch (final LeaseNotFoundException expired)
                {
                    // In ASYNC a read may show a revision not yet appended: a write acknowledged
                    // after it is appended after it, so the expiry is then acknowledged too.
                    out.println("ack " + engine.put("/marker", Long.toString(old)).revision());
                    out.println("gone " + old);
                }
            }
            out.flush();
            try
            {
                Thread.sleep(random.nextInt(20));
            }
            catch (final InterruptedException e)
            {
                return;
            }
        }
    }

    /** The engine both the child and the test open: 1 s leases, checked every 20 ms. */
    static RingWatchConfig config(final Path dir)
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).build())
            .leaseMinTtlSeconds(1)
            .leaseCheckInterval(Duration.ofMillis(20))
            .snapshotEveryRevisions(300)
            .build();
    }
}
