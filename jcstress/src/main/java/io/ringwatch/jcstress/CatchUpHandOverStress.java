package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIL_Result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The unsynced-to-synced hand-over of a persistent engine: a pull watcher that starts before the watch window
 * catches up from the revision log and rejoins the window while the writer writes. It must see the key's three
 * values 1, 2, 3 exactly once each, in order, whenever it polls: never a gap, a duplicate or a reordering.
 * <p>
 * One persistent engine per fork (a 16-event window that never grows, a revision log in a temporary
 * directory), shared by the instances through fresh keys. Each instance puts value 1 into its key, then 20
 * other keys, so that revision leaves the window. The writer then puts 2 and 3 asynchronously while the reader
 * opens a pull watcher from the revision of value 1 (it must catch up from the log) and polls twice (r1: the
 * values it got, as digits). The arbiter waits, bounded, for all three (r2) and reports the watch's state
 * (r3: LIVE, the reason it ended, or STUCK).
 * <p>
 * Used from the jcstress threads only; allocates a watcher, the writes and a key per instance.
 */
@JCStressTest
@Description("A watcher catching up from the revision log while the writer writes: 1, 2, 3 in order, each once.")
@Outcome(id = "0, 123, LIVE", expect = ACCEPTABLE, desc = "The reader polled before the catch-up delivered anything.")
@Outcome(id = "123, 123, LIVE", expect = ACCEPTABLE, desc = "The reader got everything in its two polls.")
@Outcome(id = {"1, 123, LIVE", "12, 123, LIVE"}, expect = ACCEPTABLE_INTERESTING,
    desc = "The reader polled during the catch-up or the hand-over: a prefix, in order.")
@Outcome(expect = FORBIDDEN,
    desc = "A gap, a duplicate, a reordering, a value never written (9), the watch ended, or STUCK.")
@State
public class CatchUpHandOverStress
{
    private static final int FILLERS = 20;
    private static final int POLL_MAX = 16;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final RingWatch ENGINE = openDurableEngine();

    private final byte[] key = SharedEngine.freshKey("catchup");
    private final long firstRevision;
    private final Trace seen = new Trace();
    private PullWatcher watcher;
    private CompletableFuture<WriteResult> second;
    private CompletableFuture<WriteResult> third;

    /** Writes value 1, then enough other keys to push it out of the window. The jcstress state thread. */
    public CatchUpHandOverStress()
    {
        firstRevision = ENGINE.write(Op.put(key, new byte[] {1})).revision();
        for (int i = 0; i < FILLERS; i++)
        {
            ENGINE.write(Op.put(SharedEngine.freshKey("filler"), new byte[] {0}));
        }
    }

    /** Writes values 2 and 3 without waiting. Writer actor thread. */
    @Actor
    public void writer()
    {
        second = ENGINE.writeAsync(Op.put(key, new byte[] {2}));
        third = ENGINE.writeAsync(Op.put(key, new byte[] {3}));
    }

    /**
     * Watches from value 1's revision and polls twice. Reader actor thread.
     *
     * @param result receives the values got, in r1.
     */
    @Actor
    public void reader(final IIL_Result result)
    {
        watcher = ENGINE.watchPull(WatchRequest.of(KeyRange.key(key)).startRevision(firstRevision));
        watcher.poll(seen, POLL_MAX);
        watcher.poll(seen, POLL_MAX);
        result.r1 = seen.trace;
    }

    /**
     * Waits (bounded) for all three values, then cancels the watcher. Arbiter thread.
     *
     * @param result every value handed over (r2) and how the watch stands (r3).
     */
    @Arbiter
    public void finalState(final IIL_Result result)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        boolean arrived = Await.done(second, deadline) && Await.done(third, deadline);
        while (arrived && seen.events < 3 && seen.cancellation == null)
        {
            if (watcher.poll(seen, POLL_MAX) == 0)
            {
                arrived = Await.pause(deadline);
            }
        }
        result.r2 = seen.trace;
        result.r3 = !arrived ? "STUCK" : seen.cancellation == null ? "LIVE" : seen.cancellation.reason().name();
        watcher.cancel();
    }

    private static RingWatch openDurableEngine()
    {
        try
        {
            final Path dir = Files.createTempDirectory("ringwatch-jcstress");
            final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
                .persistence(LogConfig.builder(dir).build())
                .snapshotEveryRevisions(0)
                .windowCapacity(16, 16)
                .windowFreshness(Duration.ofNanos(1))
                .maxKeyBytes(32)
                .maxValueBytes(8)
                .build());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir)));
            return engine;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (final IOException | UncheckedIOException ignore)
        {
            // A temporary directory; the fork is ending anyway.
        }
    }

    /** The values a watcher handed over, as digits (9 for a value never written), and how it ended. */
    private static final class Trace implements WatchListener
    {
        private int trace;
        private int events;
        private WatchCancellation cancellation;

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final int value = batch.get(i).valueLength() == 1 ? batch.get(i).valueBuffer().getByte(0) : 9;
                trace = trace * 10 + (value >= 1 && value <= 3 ? value : 9);
                events++;
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }
    }
}
