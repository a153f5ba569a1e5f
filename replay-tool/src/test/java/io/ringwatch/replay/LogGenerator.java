package io.ringwatch.replay;

import java.nio.file.Path;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.persistence.LogConfig;

/**
 * Writes a revision log of N revisions through the engine's public API, for measuring the tool
 * ({@code print} lines per second): puts over 10,000 keys with every tenth revision a delete of a
 * key written just before. Run with the test classpath:
 * {@code java $(cat target/jvm.flags) -cp ... io.ringwatch.replay.LogGenerator <dir> <revisions>}.
 */
final class LogGenerator
{
    private static final int KEYS = 10_000;

    private LogGenerator()
    {
    }

    /**
     * Writes the log.
     *
     * @param args the data directory (missing or empty) and the number of revisions.
     */
    public static void main(final String[] args)
    {
        final Path directory = Path.of(args[0]);
        final long revisions = Long.parseLong(args[1]);
        final long started = System.nanoTime();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(directory).build()).build()))
        {
            long previous = 0;
            while (engine.currentRevision() < revisions)
            {
                final long next = engine.currentRevision() + 1;
                final String key = "/gen/" + (next % KEYS);
                if (next % 10 == 0 && previous != 0)
                {
                    engine.delete(KeyRange.key("/gen/" + ((next - 1) % KEYS)));
                }
                else
                {
                    engine.put(key, "value-" + next);
                }
                previous = next;
            }
            System.out.printf("%d revisions in %.1f s into %s%n", engine.currentRevision(),
                (System.nanoTime() - started) / 1e9, directory);
        }
    }
}
