package io.ringwatch.engine.internal.durable;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.persistence.LogConfig;

/**
 * The child process of {@link KillDuringSnapshotTest}: a SYNC engine over a large index, so that
 * each snapshot takes a while to write. On an empty directory it first loads {@link #BIG_KEYS}
 * keys {@code big/NNNNNN} of {@link #BIG_VALUE_BYTES} bytes each, {@link #PER_TXN} per transaction
 * (revisions 1..{@link #LOAD_REVISIONS}); then it prints {@code ready} and writes put after put as
 * {@link CrashingWriter} does (write number n, which is its revision, puts {@code "k" + n % KEYS}
 * to {@code "v" + n}), printing {@code ack R} per acknowledged revision, until it is killed. It
 * snapshots every {@code args[1]} revisions.
 */
public final class SnapshottingWriter
{
    static final int BIG_KEYS = 100_000;
    static final int BIG_VALUE_BYTES = 200;
    static final int PER_TXN = 1_000;
    static final long LOAD_REVISIONS = BIG_KEYS / PER_TXN;

    private SnapshottingWriter()
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
        if (engine.currentRevision() == 0)
        {
            for (int t = 0; t < LOAD_REVISIONS; t++)
            {
                final List<Op> puts = new ArrayList<>(PER_TXN);
                for (int i = t * PER_TXN; i < (t + 1) * PER_TXN; i++)
                {
                    puts.add(Op.put(bigKey(i).getBytes(), bigValue(i)));
                }
                engine.txn(Txn.of(List.of(), puts, List.of()));
            }
        }
        out.println("ready " + engine.currentRevision());
        out.flush();
        final Semaphore inFlight = new Semaphore(CrashingWriter.IN_FLIGHT);
        for (long n = engine.currentRevision() + 1; ; n++)
        {
            inFlight.acquireUninterruptibly();
            engine.writeAsync(Op.put("k" + n % CrashingWriter.KEYS, "v" + n)).whenComplete((result, failure) ->
            {
                inFlight.release();
                if (result != null)
                {
                    out.println("ack " + result.revision());
                }
            });
        }
    }

    static String bigKey(final int i)
    {
        return String.format("big/%06d", i);
    }

    static byte[] bigValue(final int i)
    {
        final byte[] value = new byte[BIG_VALUE_BYTES];
        for (int b = 0; b < value.length; b++)
        {
            value[b] = (byte)('a' + (i + b) % 26);
        }
        return value;
    }
}
