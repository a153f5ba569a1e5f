package io.ringwatch.engine.internal.durable;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;

/**
 * The child process of {@link KillNineTest}: opens a persistent engine in SYNC mode over the
 * directory given, then writes put after put, up to {@link #IN_FLIGHT} at once, printing each
 * acknowledged revision ({@code ack R}), until it is killed. Write number n (1-based, counted
 * over every run) puts {@code "k" + n % KEYS} to {@code "v" + n}, so the parent can say what state
 * any revision must recover to. Beside it a watcher prints the revision of every event it gets
 * ({@code seen R}) and a reader the newest revision it read ({@code read R}: the current revision
 * and the mod revision of a key it got), so the parent can check that nothing anyone saw is lost.
 */
public final class CrashingWriter
{
    static final int KEYS = 97;
    static final int IN_FLIGHT = 32;

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
        engine.watch(WatchRequest.of(KeyRange.all()), new WatchListener()
        {
            @Override
            public void onEvents(final EventBatch batch)
            {
                long newest = 0;
                for (int i = 0; i < batch.size(); i++)
                {
                    newest = Math.max(newest, batch.get(i).revision());
                }
                out.println("seen " + newest);
            }

            @Override
            public void onCancelled(final WatchCancellation cancellation)
            {
            }
        });
        final Thread reader = new Thread(() -> read(engine, out), "reader");
        reader.setDaemon(true);
        reader.start();
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
        }
    }

    private static void read(final RingWatch engine, final PrintStream out)
    {
        long printed = 0;
        for (long i = 0; ; i++)
        {
            final long current = engine.currentRevision();
            final long modRevision = engine.get("k" + i % KEYS).map(KeyValue::modRevision).orElse(0L);
            final long newest = Math.max(current, modRevision);
            if (newest > printed)
            {
                out.println("read " + newest);
                printed = newest;
            }
        }
    }
}
