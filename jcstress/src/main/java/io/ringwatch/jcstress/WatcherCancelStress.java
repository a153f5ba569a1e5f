package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIL_Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link Watcher#cancel()} racing a push delivery, through the public API: once {@code cancel()} has returned,
 * the listener is never called with an event again (a call already running when cancel began finishes first,
 * and cancel waits for it).
 * <p>
 * Each instance push-watches a fresh key of the {@link SharedEngine} from "now". The writer puts the value 1
 * into the key (asynchronously). The canceller cancels the watcher, then raises a flag and reads how many
 * events the listener had been given (r1). The listener counts events and notes a call that began after the
 * flag was up. The arbiter waits, bounded, for the write, then reads the count again (r2) and whether a call
 * came late (r3: "NONE", "LATE", or "STUCK" if the write never completed).
 * <p>
 * What this cannot see: a late call that the delivery thread makes after the arbiter has read the state.
 * jcstress runs the arbiters only once both actors have gone through a whole batch of instances, so the
 * dispatcher has had that long to route the event.
 * <p>
 * Every jcstress instance is used from the jcstress threads and the engine's delivery thread only. Allocates a
 * watcher, its listener, a write future and a key per instance.
 */
@JCStressTest
@Description("Watcher cancel vs. push delivery: no listener call with events begins after cancel() returned.")
@Outcome(id = "0, 0, NONE", expect = ACCEPTABLE, desc = "The cancel came first: the event was never delivered.")
@Outcome(
    id = "1, 1, NONE",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The delivery came first, or was running when cancel began and cancel waited for it to finish.")
@Outcome(
    expect = FORBIDDEN,
    desc = "LATE: a listener call began after cancel() returned; more events counted at the end than when cancel "
        + "returned; an event delivered twice; or STUCK: the write never completed.")
@State
public class WatcherCancelStress
{
    private static final byte[] VALUE = ValueTrace.value(1);
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final RingWatch engine = SharedEngine.engine();
    private final byte[] key = SharedEngine.freshKey("cancel");
    private final CountingListener listener = new CountingListener();
    private final Watcher watcher = engine.watch(WatchRequest.of(KeyRange.key(key)), listener);
    private CompletableFuture<WriteResult> write;

    /**
     * Writes the value 1, without waiting. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        write = engine.writeAsync(Op.put(key, VALUE));
    }

    /**
     * Cancels the watcher, then raises the flag and reads the count. Canceller actor thread.
     *
     * @param result receives the count when cancel returned, in r1.
     */
    @Actor
    public void canceller(final IIL_Result result)
    {
        watcher.cancel();
        listener.cancelReturned = true;
        result.r1 = listener.events;
    }

    /**
     * Waits for the write (bounded), then reads the count and the late flag. Arbiter thread, after both actors.
     *
     * @param result receives the final count (r2) and whether a call came late (r3).
     */
    @Arbiter
    public void finalState(final IIL_Result result)
    {
        final boolean written = Await.done(write, System.nanoTime() + WAIT_NANOS);
        result.r2 = listener.events;
        result.r3 = !written ? "STUCK" : listener.late ? "LATE" : "NONE";
    }

    /** Counts events and notes a call that began after the canceller's flag was up. The delivery thread. */
    private static final class CountingListener implements WatchListener
    {
        volatile boolean cancelReturned;
        volatile int events;
        volatile boolean late;

        @Override
        public void onEvents(final EventBatch batch)
        {
            if (cancelReturned)
            {
                late = true;
            }
            // One delivery thread calls a listener at a time, so the read-modify-write does not race.
            events = events + batch.size();
        }
    }
}
