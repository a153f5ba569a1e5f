package io.ringwatch.jmh.engine;

import com.lmax.disruptor.EventHandler;

/**
 * The one handler of the {@link SharedRingState} ring: reads each slot's payload into a running sum
 * ({@link PayloadSlot#fold()}) and counts the slots, and does nothing else, so the ring is measured
 * without any engine work.
 * <p>
 * Runs on the ring's handler thread. Its sums are plain fields: the getters may be read only after
 * {@code Disruptor.shutdown} has seen the handler's sequence reach the cursor, since the handler
 * publishes its sequence with a release store after each batch, ordering these fields before it.
 * Allocates nothing.
 */
final class PayloadReader implements EventHandler<PayloadSlot>
{
    private long handled;
    private long folded;

    /**
     * Adds the slot's payload bytes to the sum. Handler thread; allocates nothing.
     *
     * @param slot       the published slot.
     * @param sequence   its sequence.
     * @param endOfBatch whether it is the last of the batch.
     */
    @Override
    public void onEvent(final PayloadSlot slot, final long sequence, final boolean endOfBatch)
    {
        folded += slot.fold();
        handled++;
    }

    /**
     * @return the slots handled. After the ring's shutdown.
     */
    long handled()
    {
        return handled;
    }

    /**
     * @return the sum of {@link PayloadSlot#fold()} over the slots handled. After the ring's shutdown.
     */
    long folded()
    {
        return folded;
    }
}
