package io.ringwatch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ASYNC engine shows a revision before its journal appends it, so a compactor that compacts
 * at {@link RingWatch#currentRevision()} while writes are in flight (what etcd's periodic compactor
 * and Kubernetes' do: compact at the revision they last saw) names a revision the log may not hold
 * yet. The compaction must succeed (or be refused with one of the typed errors its javadoc names),
 * never fail with the log's own IllegalArgumentException, and a reopen must hold every
 * acknowledged write with the compaction point at or below the recovered revision.
 */
class CompactAheadOfTheLogTest
{
    @TempDir
    Path dir;

    @Test
    void compactingAtTheShownRevisionWhileWritesAreInFlightSucceeds() throws Exception
    {
        final RingWatchConfig config = RingWatchConfig.builder().persistence(LogConfig.builder(dir).build()).build();
        long compacted = 0;
        long acknowledged;
        try (RingWatch engine = RingWatch.open(config))
        {
            final AtomicBoolean writing = new AtomicBoolean(true);
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final java.util.concurrent.atomic.AtomicLong acked = new java.util.concurrent.atomic.AtomicLong();
            final Thread writer = new Thread(() ->
            {
                final Semaphore inFlight = new Semaphore(256);
                for (long n = 0; writing.get(); n++)
                {
                    inFlight.acquireUninterruptibly();
                    engine.writeAsync(Op.put("k" + n % 100, "v" + n)).whenComplete((r, t) ->
                    {
                        if (t != null)
                        {
                            failed.compareAndSet(null, t);
                        }
                        else
                        {
                            acked.accumulateAndGet(r.revision(), Math::max);
                        }
                        inFlight.release();
                    });
                }
                inFlight.acquireUninterruptibly(256);
            }, "writer");
            writer.start();
            try
            {
                final long end = System.nanoTime() + 3_000_000_000L;
                while (System.nanoTime() < end)
                {
                    final long shown = engine.currentRevision();
                    if (shown > compacted)
                    {
                        try
                        {
                            engine.compact(shown);
                            compacted = shown;
                        }
                        catch (final CompactedException raced)
                        {
                            // Only this thread compacts: never expected, but typed.
                            throw new AssertionError(raced);
                        }
                    }
                }
            }
            finally
            {
                writing.set(false);
                writer.join();
            }
            assertEquals(null, failed.get(), "a write failed");
            acknowledged = acked.get();
            assertTrue(compacted > 0, "nothing compacted");
        }
        try (RingWatch engine = RingWatch.open(config))
        {
            assertTrue(engine.currentRevision() >= acknowledged, "acknowledged " + acknowledged + ", recovered " + engine.currentRevision());
            assertTrue(engine.compactRevision() <= engine.currentRevision());
            assertEquals(compacted, engine.compactRevision(), "the compaction point recovered");
        }
    }
}
