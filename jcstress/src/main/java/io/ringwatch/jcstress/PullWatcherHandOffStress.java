package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
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
 * The dispatcher's hand-off to a pull watcher, through the public API: a watcher polling while the writer
 * writes two revisions of its key sees a prefix of them, in order: nothing, the first, or both; never the
 * second alone, the second before the first, or one twice. Afterwards it gets exactly both.
 * <p>
 * Each instance watches a fresh key of the {@link SharedEngine} from "now" (the revision after the engine's
 * current one, fixed when the state is built). The writer puts the value 1 then the value 2 into the key
 * (asynchronously: the writes enter the write ring at once, the dispatcher routes them when the writer thread
 * has applied them). The reader polls twice (r1: the values it got, {@link ValueTrace}). The arbiter waits,
 * bounded, for the writes and for the watcher to have both events (r2: every value the watcher ever handed
 * over), then cancels the watcher; r3 is "LIVE", or the reason the watch ended by itself, or "STUCK" if the
 * events did not arrive within the bound (a hang reads as an outcome, not as a hung test).
 * <p>
 * Every jcstress instance is used from the jcstress threads only. Allocates a watcher, two write futures and
 * a key per instance.
 */
@JCStressTest
@Description("Pull watcher vs. the writer's two revisions: nothing, [1] or [1, 2], never [2] alone or out of "
    + "order; then exactly [1, 2].")
@Outcome(id = "0, 12, LIVE", expect = ACCEPTABLE, desc = "The reader polled before the dispatcher routed anything.")
@Outcome(id = "12, 12, LIVE", expect = ACCEPTABLE, desc = "Both revisions were routed before the reader polled.")
@Outcome(
    id = "1, 12, LIVE",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The reader polled between the hand-offs of the two revisions: it got the first only.")
@Outcome(
    expect = FORBIDDEN,
    desc = "The second revision without the first, out of order or twice, a value never written (9), an event "
        + "lost (r2 other than 12), the watch ended by the engine, or STUCK: the events never arrived.")
@State
public class PullWatcherHandOffStress
{
    private static final byte[] FIRST = ValueTrace.value(1);
    private static final byte[] SECOND = ValueTrace.value(2);
    private static final int POLL_MAX = 16;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final RingWatch engine = SharedEngine.engine();
    private final byte[] key = SharedEngine.freshKey("pull");
    private final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.key(key)));
    private final ValueTrace seen = new ValueTrace();
    private CompletableFuture<WriteResult> firstWrite;
    private CompletableFuture<WriteResult> secondWrite;

    /**
     * Writes the values 1 and 2, without waiting. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        firstWrite = engine.writeAsync(Op.put(key, FIRST));
        secondWrite = engine.writeAsync(Op.put(key, SECOND));
    }

    /**
     * Polls twice. Reader actor thread.
     *
     * @param result receives the values got, in r1.
     */
    @Actor
    public void reader(final IIL_Result result)
    {
        watcher.poll(seen, POLL_MAX);
        watcher.poll(seen, POLL_MAX);
        result.r1 = seen.trace();
    }

    /**
     * Waits for both events (bounded), then cancels the watcher. Arbiter thread, after both actors.
     *
     * @param result receives every value the watcher handed over (r2) and how the watch stands (r3).
     */
    @Arbiter
    public void finalState(final IIL_Result result)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        boolean arrived = Await.done(firstWrite, deadline) && Await.done(secondWrite, deadline);
        while (arrived && seen.events() < 2 && seen.cancellation() == null)
        {
            if (watcher.poll(seen, POLL_MAX) == 0)
            {
                arrived = Await.pause(deadline);
            }
        }
        result.r2 = seen.trace();
        result.r3 = !arrived ? "STUCK" : seen.cancellation() == null ? "LIVE" : seen.cancellation().reason().name();
        watcher.cancel();
    }
}
