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
 * The race at a {@link PendingQueue} growth: the producer links a larger array and writes into it while the
 * consumer finishes the full old array and follows the link.
 * <p>
 * Each instance starts with a full 2-slot array holding 1 and 2 (max capacity 16). The producer then offers
 * 3, 4, 5: unless the consumer has already freed slots, offering 3 links a 4-slot array whose first index is
 * 2, where a consumer that did not follow the link would read the old slot 0 again (a second 1) and one that
 * followed it too early would read an unwritten 0. The consumer polls five times; the arbiter drains the rest.
 * r1: what the consumer polled, as a {@link DigitTrace}; r2: what the arbiter drained; r3: the producer's
 * array length after its offers (2 or 4).
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the producer actor is the queue's
 * producer, the consumer actor and then the arbiter are its consumer. Allocates one queue per instance.
 */
@JCStressTest
@Description("PendingQueue growth race: the consumer crosses from a full array to the one linked after it "
    + "while the producer fills the new one.")
@Outcome(
    id = "12, 345, 4",
    expect = ACCEPTABLE,
    desc = "The consumer emptied the old array before 3 was published; the arbiter found 3, 4, 5 in the new "
        + "one.")
@Outcome(
    id = "(123, 45|1234, 5|12345, 0), 4",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The race itself: the consumer followed the link to the new array and read what the producer had "
        + "published there; the arbiter got the rest.")
@Outcome(
    id = "(123, 45|1234, 5|12345, 0), 2",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The consumer freed each slot before the next offer needed it, so the producer reused the 2-slot "
        + "array and never grew.")
@Outcome(
    expect = FORBIDDEN,
    desc = "A value out of order, seen twice (a stale old slot), never offered (9: an unwritten slot) or lost; "
        + "or growth the consumer's pace rules out.")
@State
public class PendingQueueGrowthRaceStress
{
    private static final int LAST_VALUE = 5;
    private static final int POLLS = 5;
    private static final int INITIAL_CAPACITY = 2;
    private static final int MAX_CAPACITY = 16;

    private final PendingQueue queue = new PendingQueue(INITIAL_CAPACITY, MAX_CAPACITY);

    /**
     * Fills the first array with 1 and 2. Runs before the actors, on the thread jcstress creates state on.
     */
    public PendingQueueGrowthRaceStress()
    {
        queue.offer(1);
        queue.offer(2);
    }

    /**
     * Offers 3, 4, 5 (the first of them usually grows the queue), then records the producer's array length.
     * Producer actor thread.
     *
     * @param result receives the array length in r3.
     */
    @Actor
    public void producer(final III_Result result)
    {
        for (int value = INITIAL_CAPACITY + 1; value <= LAST_VALUE; value++)
        {
            queue.offer(value); // never refused: at most LAST_VALUE < MAX_CAPACITY values are ever pending
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
