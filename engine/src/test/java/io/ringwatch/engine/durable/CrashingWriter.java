package io.ringwatch.engine.durable;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link KillNineTest}: opens a persistent engine in SYNC mode over the
 * directory given, then writes put after put, printing each acknowledged revision, until it is
 * killed. Write number n (1-based, counted over every run) puts {@code "k" + n % KEYS} to
 * {@code "v" + n}, so the parent can say what state any revision must recover to.
 */
public final class CrashingWriter
{
    static final int KEYS = 97;

    private CrashingWriter()
    {
    }

    /**
     * @param args the data directory and the snapshot interval in revisions.
     */
    public static void main(final String[] args)
    {
        final PrintStream out = System.out;
        final RingWatchConfig config = RingWatchConfig.builder()
            .persistence(LogConfig.builder(Path.of(args[0])).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(Long.parseLong(args[1]))
            .build();
        final RingWatch engine = RingWatch.open(config);
        out.println("open " + engine.currentRevision());
        out.flush();
        for (long n = engine.currentRevision() + 1; ; n++)
        {
            final long revision = engine.put("k" + n % KEYS, "v" + n).revision();
            out.println("ack " + revision);
            out.flush();
        }
    }
}
