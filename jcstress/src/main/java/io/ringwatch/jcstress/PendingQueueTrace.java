package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.dispatch.PendingQueue;

/**
 * The consumer's side of the {@link PendingQueue} stress tests: polls a queue and records what came out as a
 * {@link DigitTrace}.
 * <p>
 * Only the queue's consumer thread may call these (a consumer actor, or the arbiter once the actors are
 * done); they allocate nothing.
 */
final class PendingQueueTrace
{
    private PendingQueueTrace()
    {
    }

    /**
     * Polls exactly {@code polls} times, recording each value that was pending and skipping empty polls, so
     * the consumer runs alongside the producer rather than waiting for it.
     *
     * @param queue     the queue to poll.
     * @param polls     how many times to poll.
     * @param lastValue the largest value the test offers.
     * @return the trace of the values polled; 0 if none.
     */
    static int pollTimes(final PendingQueue queue, final int polls, final int lastValue)
    {
        int trace = 0;
        for (int i = 0; i < polls; i++)
        {
            final long value = queue.poll();
            if (PendingQueue.EMPTY != value)
            {
                trace = DigitTrace.append(trace, value, lastValue);
            }
        }
        return trace;
    }

    /**
     * Polls until the queue is empty, recording every value.
     *
     * @param queue     the queue to drain.
     * @param lastValue the largest value the test offers.
     * @return the trace of the values drained; 0 if none.
     */
    static int drain(final PendingQueue queue, final int lastValue)
    {
        // Bounded by more values than were ever offered, so a queue that kept returning values still ends.
        final int pollLimit = 2 * lastValue;
        int trace = 0;
        for (int i = 0; i < pollLimit; i++)
        {
            final long value = queue.poll();
            if (PendingQueue.EMPTY == value)
            {
                break;
            }
            trace = DigitTrace.append(trace, value, lastValue);
        }
        return trace;
    }
}
