package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.dispatch.PendingQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link PendingQueue} hands every value from its one producer to its one consumer exactly once and in order,
 * while it grows from a single slot.
 * <p>
 * The producer offers 1, 2, 3, 4 into a queue of initial capacity 1 (max 4), so it doubles once or twice
 * unless the consumer keeps pace; the consumer polls four times as the values arrive; the arbiter drains
 * what is left. r1: what the consumer polled, as a {@link DigitTrace}; r2: what the arbiter drained; r3: the
 * producer's array length after its offers (1, 2 or 4).
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the producer actor is the queue's
 * producer, the consumer actor and then the arbiter are its consumer. Allocates one queue per instance.
 */
@JCStressTest
@Description("PendingQueue SPSC: every offered value reaches the consumer or the arbiter, once, in order, "
    + "across growth from one slot.")
@Outcome(
    id = "(0, 1234|1, 234|12, 34|123, 4|1234, 0), [24]",
    expect = ACCEPTABLE,
    desc = "The consumer took a prefix of 1234, the arbiter the rest; the queue grew once or twice.")
@Outcome(
    id = "(123, 4|1234, 0), 1",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The consumer polled each value before the next offer, so the single slot was reused and the queue "
        + "never grew.")
@Outcome(
    expect = FORBIDDEN,
    desc = "A value out of order, seen twice, never offered (9) or lost; or growth the consumer's pace rules "
        + "out.")
@State
public class PendingQueueStress
{
    private static final int LAST_VALUE = 4;
    private static final int POLLS = 4;

    private final PendingQueue queue = new PendingQueue(1, LAST_VALUE);

    /**
     * Offers 1 to 4, then records the producer's array length. Producer actor thread.
     *
     * @param result receives the array length in r3.
     */
    @Actor
    public void producer(final III_Result result)
    {
        for (int value = 1; value <= LAST_VALUE; value++)
        {
            queue.offer(value); // never refused: at most LAST_VALUE values are ever pending
        }
        result.r3 = queue.capacity();
    }

    /**
     * Polls a fixed number of times, recording each value that was there. Consumer actor thread.
     *
     * @param result receives the consumer's trace in r1.
     */
    @Actor
    public void consumer(final III_Result result)
    {
        result.r1 = PendingQueueTrace.pollTimes(queue, POLLS, LAST_VALUE);
    }

    /**
     * Drains what the consumer left, once both actors finished. Arbiter thread, as the consumer.
     *
     * @param result receives the arbiter's trace in r2.
     */
    @Arbiter
    public void drainRest(final III_Result result)
    {
        result.r2 = PendingQueueTrace.drain(queue, LAST_VALUE);
    }
}
