package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
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
import org.openjdk.jcstress.infra.results.LL_Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The delivery pool's scheduling hand-off, through the public API: a push watcher whose events arrive while
 * its turn runs, or just after, is never on two delivery threads at once, never left unscheduled with an
 * event, and gets its events in revision order, whichever of the pool's threads runs each turn.
 * <p>
 * Each instance push-watches a fresh key of an engine with four delivery threads (one per fork, shared like
 * {@link SharedEngine}). Two writers put the values 1 and 2 into the key at once (asynchronously). The listener
 * notes a call that began while another was inside (OVERLAP) and a call on a different thread from the first
 * (HANDED_OFF: the race this test exists for, the watcher rescheduled on another thread). The arbiter waits,
 * bounded, for both writes and both events, then says whether the values came in revision order (r1:
 * IN_ORDER, OUT_OF_ORDER, or STUCK when an event never arrived) and how the calls went (r2: ONE_THREAD,
 * HANDED_OFF or OVERLAP), and cancels the watcher.
 * <p>
 * Blind spot as {@link WatcherCancelStress}'s: jcstress runs arbiters after a batch of instances, so a turn
 * overlapping another after the arbiter read the state is not seen. Allocates a watcher, its listener, two
 * write futures and a key per instance.
 */
@JCStressTest
@Description("Delivery pool hand-off: a push watcher is on one thread at a time, never left with an "
    + "undelivered event, its events in order, across threads.")
@Outcome(id = "IN_ORDER, ONE_THREAD", expect = ACCEPTABLE, desc = "Every call on one delivery thread.")
@Outcome(
    id = "IN_ORDER, HANDED_OFF",
    expect = ACCEPTABLE_INTERESTING,
    desc = "A later turn ran on another delivery thread than the first: the hand-off, in order, never overlapping.")
@Outcome(
    expect = FORBIDDEN,
    desc = "OVERLAP: two threads in the watcher's listener at once; OUT_OF_ORDER: the values not in revision "
        + "order, one twice or lost; STUCK: an event or a write never completed.")
@State
public class DeliveryPoolHandOffStress
{
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final RingWatch ENGINE = RingWatch.open(RingWatchConfig.builder()
        .deliveryThreads(4)
        .windowCapacity(1 << 12, 1 << 17)
        .maxKeyBytes(32)
        .maxValueBytes(8)
        .windowBytesPerEvent(64)
        .maxPendingEvents(1 << 10)
        .build());

    private final byte[] key = SharedEngine.freshKey("pool");
    private final HandOffListener listener = new HandOffListener();
    private final Watcher watcher = ENGINE.watch(WatchRequest.of(KeyRange.key(key)), listener);
    private CompletableFuture<WriteResult> first;
    private CompletableFuture<WriteResult> second;

    /**
     * Writes the value 1, without waiting. First writer actor thread.
     */
    @Actor
    public void writeOne()
    {
        first = ENGINE.writeAsync(Op.put(key, ValueTrace.value(1)));
    }

    /**
     * Writes the value 2, without waiting. Second writer actor thread.
     */
    @Actor
    public void writeTwo()
    {
        second = ENGINE.writeAsync(Op.put(key, ValueTrace.value(2)));
    }

    /**
     * Waits (bounded) for both writes and both events, then grades them and cancels the watcher. Arbiter thread.
     *
     * @param result r1: the order; r2: how the calls went.
     */
    @Arbiter
    public void finalState(final LL_Result result)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        final boolean written = Await.done(first, deadline) && Await.done(second, deadline);
        while (listener.events < 2 && Await.pause(deadline))
        {
            // Bounded: a watcher left unscheduled reads STUCK, not a hung build.
        }
        if (!written || listener.events < 2)
        {
            result.r1 = "STUCK";
        }
        else
        {
            final int expected = first.join().revision() < second.join().revision() ? 12 : 21;
            result.r1 = listener.events == 2 && listener.trace == expected ? "IN_ORDER" : "OUT_OF_ORDER";
        }
        result.r2 = listener.overlapped ? "OVERLAP" : listener.handedOff ? "HANDED_OFF" : "ONE_THREAD";
        watcher.cancel();
    }

    /** Records the values as digits, and how the calls overlapped or moved between threads. Delivery threads. */
    private static final class HandOffListener implements WatchListener
    {
        private final AtomicInteger inside = new AtomicInteger();
        private Thread firstThread;
        private int trace;
        volatile boolean overlapped;
        volatile boolean handedOff;
        /** Written last in each call: the arbiter's read of it sees the trace before it. */
        volatile int events;

        @Override
        public void onEvents(final EventBatch batch)
        {
            if (inside.getAndIncrement() != 0)
            {
                overlapped = true;
            }
            final Thread self = Thread.currentThread();
            if (firstThread == null)
            {
                firstThread = self;
            }
            else if (firstThread != self)
            {
                handedOff = true;
            }
            for (int i = 0; i < batch.size(); i++)
            {
                final WatchEvent event = batch.get(i);
                trace = trace * 10 + (event.valueLength() == 1 ? event.valueBuffer().getByte(0) : DigitTrace.NEVER_OFFERED);
            }
            inside.decrementAndGet();
            events = events + batch.size();
        }
    }
}
