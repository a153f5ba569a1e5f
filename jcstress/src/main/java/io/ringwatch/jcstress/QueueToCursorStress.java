package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An in-memory engine's switch of a watcher from its queue to its own cursor and back: with a queue only
 * {@link #DEPTH} deep, a burst of {@link #VALUES} writes to the watched key fills it while the consumer drains
 * it, so the dispatcher takes the watcher off the routes (dropping its queue), the consumer reads the window by
 * cursor from exactly what it has delivered, and rejoins the routes, possibly several times, racing the
 * writes. Each watcher must get every value once, in order: no gap, no duplicate, and no cancel, since the
 * window holds every event.
 * <p>
 * Each instance works on a fresh key of an engine of its own kind shared by the fork ({@link Shallow}). The
 * writer actor puts 1 to 8 into the key (all submitted, then the last awaited, bounded). The watcher actor
 * polls the pull watcher one event at a time until it has 8 or has ended, or 10 s pass; the push watcher's
 * delivery thread races both. The arbiter polls once more and cancels both: r1 and r2 are the values the pull
 * and push watcher handed over, as digits ({@link DigitTrace}); r3 is "LIVE", "STUCK" or the reasons the
 * watches ended.
 * <p>
 * Allocates a key, 8 writes, two watchers and their listeners per instance.
 */
@JCStressTest
@Description("A watcher whose shallow queue overflows reads the window by its own cursor and rejoins: exactly "
    + "1 to 8, in order.")
@Outcome(id = "12345678, 12345678, LIVE", expect = ACCEPTABLE, desc = "Every value once, in order, whatever the switches.")
@Outcome(expect = FORBIDDEN, desc = "A value lost (a gap), twice or out of order; a watch cancelled; or STUCK.")
@State
public class QueueToCursorStress
{
    private static final int VALUES = 8;
    /** Shallower than the burst: the burst overflows the queue of a watcher that is not drained at once. */
    private static final int DEPTH = 4;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final String LIVE = "LIVE";

    private final RingWatch engine = Shallow.ENGINE;
    private final byte[] key = SharedEngine.freshKey("cursor");
    private final PullWatcher pull = engine.watchPull(WatchRequest.of(KeyRange.key(key)));
    private final Trace polled = new Trace();
    private final Trace pushed = new Trace();
    private final Watcher push = engine.watch(WatchRequest.of(KeyRange.key(key)), pushed);
    private boolean written;
    private boolean pullArrived;

    /**
     * Puts 1 to 8 into the key, all in flight at once. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        CompletableFuture<WriteResult> last = null;
        for (int value = 1; value <= VALUES; value++)
        {
            last = engine.writeAsync(Op.put(key, new byte[] {(byte)value}));
        }
        written = Await.done(last, System.nanoTime() + WAIT_NANOS);
    }

    /**
     * Polls the pull watcher one event at a time until it has every value or has ended (bounded). Watcher actor
     * thread.
     */
    @Actor
    public void watcher()
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        boolean inTime = true;
        while (inTime && !finished(polled))
        {
            if (pull.poll(polled, 1) == 0)
            {
                inTime = Await.pause(deadline);
            }
        }
        pullArrived = finished(polled);
    }

    /**
     * Waits (bounded) for the push watcher, takes what else arrived and cancels both. Arbiter thread.
     *
     * @param result the pull trace (r1), the push trace (r2) and how the watches stand (r3).
     */
    @Arbiter
    public void finalState(final LLL_Result result)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (!finished(pushed) && Await.pause(deadline))
        {
            Thread.onSpinWait();
        }
        pull.poll(polled, VALUES);
        final String status = written && pullArrived && finished(pushed)
            ? "pull=" + polled.status() + " push=" + pushed.status() : "STUCK";
        pull.cancel();
        push.cancel();
        result.r1 = polled.trace;
        result.r2 = pushed.trace;
        result.r3 = "pull=LIVE push=LIVE".equals(status) ? LIVE : status;
    }

    private static boolean finished(final Trace trace)
    {
        return trace.events >= VALUES || trace.cancellation != null;
    }

    /** The fork's engine with shallow watcher queues. Started on first use, never closed (daemon threads). */
    private static final class Shallow
    {
        static final RingWatch ENGINE = RingWatch.open(RingWatchConfig.builder()
            .windowCapacity(1 << 12, 1 << 17)
            .maxKeyBytes(32)
            .maxValueBytes(8)
            .windowBytesPerEvent(64)
            .watcherQueueDepth(DEPTH)
            .build());
    }

    /** Records values 1 to 8 as digits; one consumer thread at a time, read by others through volatiles. */
    private static final class Trace implements WatchListener
    {
        volatile int trace;
        volatile int events;
        volatile WatchCancellation cancellation;

        @Override
        public void onEvents(final EventBatch batch)
        {
            for (int i = 0; i < batch.size(); i++)
            {
                final WatchEvent event = batch.get(i);
                final int value = event.valueLength() == 1 ? event.valueBuffer().getByte(0) : DigitTrace.NEVER_OFFERED;
                trace = DigitTrace.append(trace, value, VALUES);
                events = events + 1;
            }
        }

        @Override
        public void onCancelled(final WatchCancellation cancellation)
        {
            this.cancellation = cancellation;
        }

        String status()
        {
            final WatchCancellation ending = cancellation;
            return ending == null ? LIVE : ending.reason().name();
        }
    }
}
