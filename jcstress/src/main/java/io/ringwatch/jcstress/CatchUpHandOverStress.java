package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A persistent engine's hand-over of a watcher from catching up (reading the revision log: etcd's unsynced
 * watchers) to the live window (synced), while the key it watches is being written, through the public API.
 * A watcher gets every revision of its key exactly once, in order, whenever the writes land: before it opens,
 * while it reads the log, while its rejoin is in flight, or after it is routed again.
 * <p>
 * Each instance works on a fresh key K of the {@link SharedPersistentEngine}, whose window always holds 16
 * events. The state constructor puts 1 into K (revision r0), then 32 puts to a filler key, so the window no
 * longer holds r0. The writer actor puts 2, then 3, into K, each awaited (bounded), so they land a while
 * apart. The watcher actor reads K's value (r1: how far the writer had got when the watches opened: 1 nothing
 * yet, 2 one write, 3 both), opens two watches on K from r0, a pull watcher (its own polls on the actor thread
 * read the log and ask to rejoin) and a push watcher (the engine's delivery thread does), and takes events
 * until each has 3 or has ended, or 10 s pass. The arbiter polls once more and cancels both watchers, so an
 * event handed over twice after the actor stopped still shows: r2 and r3 are every value the pull and the push
 * watcher handed over, as digits ({@link HandOverTrace}); r4 is "LIVE" when both watches run and everything
 * arrived, else "STUCK" (the events or the writes did not arrive within the bound) or the reason a watch ended
 * by itself, as "pull=... push=...".
 * <p>
 * Every jcstress instance is used from the jcstress threads and the engine's delivery thread only. Allocates a
 * key, 35 writes, two watchers and their listeners per instance.
 */
@JCStressTest
@Description("Pull and push watchers catching up from the revision log and rejoining the window while their "
    + "key is written: each gets exactly [1, 2, 3].")
@Outcome(
    id = "3, 123, 123, LIVE",
    expect = ACCEPTABLE,
    desc = "Both writes landed before the watches opened: the log alone served them.")
@Outcome(
    id = "[12], 123, 123, LIVE",
    expect = ACCEPTABLE_INTERESTING,
    desc = "A write landed after the watches opened, while they caught up or rejoined: still exactly 1, 2, 3.")
@Outcome(
    expect = FORBIDDEN,
    desc = "A value lost (a gap), twice, out of order or never written (9); a watch ended by the engine; or "
        + "STUCK: the events or the writes never arrived.")
@State
public class CatchUpHandOverStress
{
    private static final byte[] FIRST = {1};
    private static final byte[] SECOND = {2};
    private static final byte[] THIRD = {3};
    private static final byte[] FILLER_KEY = "catchup-filler".getBytes(StandardCharsets.US_ASCII);
    /** Twice the window: r0 has left it even if the window were a revision short of full. */
    private static final int FILLERS = 2 * SharedPersistentEngine.WINDOW_EVENTS;
    private static final int WANTED_EVENTS = HandOverTrace.LAST_VALUE;
    private static final int POLL_MAX = 16;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final String LIVE = "LIVE";

    private final RingWatch engine = SharedPersistentEngine.engine();
    private final byte[] key = SharedEngine.freshKey("catchup");
    private final long firstRevision = putThenEvict();
    private final HandOverTrace polled = new HandOverTrace();
    private final HandOverTrace pushed = new HandOverTrace();
    private PullWatcher pull;
    private Watcher push;
    private boolean written;
    private boolean pullArrived;
    private boolean pushArrived;

    /**
     * Puts 2, then 3, into the key, waiting (bounded) for each. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        written = Await.done(engine.writeAsync(Op.put(key, SECOND)), deadline)
            && Await.done(engine.writeAsync(Op.put(key, THIRD)), deadline);
    }

    /**
     * Opens both watches from the key's first revision, then polls the pull watcher and waits for the push
     * watcher until each has 3 events or has ended (bounded). Watcher actor thread.
     *
     * @param result receives the key's value when the watches opened, in r1.
     */
    @Actor
    public void watchers(final LLLL_Result result)
    {
        result.r1 = valueNow();
        final WatchRequest request = WatchRequest.of(KeyRange.key(key)).startRevision(firstRevision);
        pull = engine.watchPull(request);
        push = engine.watch(request, pushed);
        final long deadline = System.nanoTime() + WAIT_NANOS;
        boolean inTime = true;
        while (inTime && !(finished(polled) && finished(pushed)))
        {
            if (finished(polled) || pull.poll(polled, POLL_MAX) == 0)
            {
                inTime = Await.pause(deadline);
            }
        }
        pullArrived = finished(polled);
        pushArrived = finished(pushed);
    }

    /**
     * Takes what else arrived and cancels both watchers. Arbiter thread, after both actors.
     *
     * @param result receives the values the pull (r2) and the push watcher (r3) handed over and how the watches
     *               stand (r4).
     */
    @Arbiter
    public void finalState(final LLLL_Result result)
    {
        pull.poll(polled, POLL_MAX);
        // Read before the cancels, whose own notices would otherwise hide how the watches stood.
        final String pullStatus = polled.status(written && pullArrived);
        final String pushStatus = pushed.status(written && pushArrived);
        pull.cancel();
        push.cancel();
        // Once cancel() has returned no event is delivered any more: the traces are final.
        result.r2 = polled.trace();
        result.r3 = pushed.trace();
        result.r4 = LIVE.equals(pullStatus) && LIVE.equals(pushStatus) ? LIVE : "pull=" + pullStatus + " push=" + pushStatus;
    }

    /**
     * Puts 1 into the key, then enough writes to another key that the window no longer holds that revision.
     * The jcstress thread building state.
     *
     * @return the key's revision r0.
     * @throws IllegalStateException if the writes were not applied within the bound.
     */
    private long putThenEvict()
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        final CompletableFuture<WriteResult> first = engine.writeAsync(Op.put(key, FIRST));
        CompletableFuture<WriteResult> last = first;
        for (int i = 0; i < FILLERS; i++)
        {
            last = engine.writeAsync(Op.put(FILLER_KEY, FIRST));
        }
        // The writer applies writes in order: once the last is applied, so is the first.
        if (!Await.done(last, deadline) || first.isCompletedExceptionally())
        {
            throw new IllegalStateException("the setup writes were not applied within " + WAIT_NANOS + " ns");
        }
        return first.join().revision();
    }

    /**
     * @return the key's value now, as its digit (0 when absent, 9 when not one of the test's).
     */
    private int valueNow()
    {
        final byte[] value = engine.get(key).map(KeyValue::value).orElse(null);
        if (value == null)
        {
            return 0;
        }
        return DigitTrace.append(0, value.length == 1 ? value[0] : DigitTrace.NEVER_OFFERED, HandOverTrace.LAST_VALUE);
    }

    private static boolean finished(final HandOverTrace trace)
    {
        return trace.events() >= WANTED_EVENTS || trace.ended();
    }
}
