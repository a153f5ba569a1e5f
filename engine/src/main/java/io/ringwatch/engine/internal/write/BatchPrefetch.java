package io.ringwatch.engine.internal.write;

import com.lmax.disruptor.RingBuffer;
import io.ringwatch.engine.internal.index.OffHeapIndex;

/**
 * Loads, ahead of the writer, what the index lookups of the next single-key writes of a Disruptor
 * batch read first: each key's home hash slot, then the node it names, in three tight loops (the
 * keys' hashes, which reads the slots the producers just wrote; the home slots, {@link OffHeapIndex#touchHome};
 * the nodes, {@link OffHeapIndex#touchNode}). The loads of one loop do not depend on each other, so
 * their cache misses overlap, where applying one write after another waits for each miss in turn (a
 * random key of a large index misses the cache). Recovery's replay touches its batches the same way
 * ({@link OffHeapIndex#touch}).
 * <p>
 * The Disruptor announces each batch ({@link #batchStarted}) before its first event; every slot of
 * the batch is then published and stays unchanged until the writer has passed it, so reading ahead up
 * to the batch's end is safe, and nothing past it is read. At most {@value #AHEAD} slots are touched at
 * once: far enough to overlap the misses, near enough that the lines are still cached when applied.
 * A batch of one write touches nothing. Changes nothing. Writer thread only; allocates nothing after
 * construction.
 */
final class BatchPrefetch
{
    /** Slots touched in one step. */
    static final int AHEAD = 32;

    private final RingBuffer<WriteCommand> ring;
    private final OffHeapIndex index;
    /** The batch's key hashes, then in place the home slots' contents. */
    private final long[] slots = new long[AHEAD];
    /** The size of the batch just announced, until its first event places it; 0 after. */
    private long announced;
    private long batchEnd = -1;
    private long touchedThrough = -1;
    /** What the touches loaded, kept so that the JIT keeps the loads; read by no one. */
    private long kept;

    BatchPrefetch(final RingBuffer<WriteCommand> ring, final OffHeapIndex index)
    {
        this.ring = ring;
        this.index = index;
    }

    /**
     * Notes the size of the batch whose first event comes next.
     *
     * @param size events in the batch, at least 1.
     */
    void batchStarted(final long size)
    {
        announced = size;
    }

    /**
     * Touches the keys of the next {@value #AHEAD} slots of the batch from {@code sequence} on, unless
     * an earlier call already did. Call before applying the slot at {@code sequence}.
     *
     * @param sequence the ring sequence about to be applied.
     */
    void before(final long sequence)
    {
        if (announced != 0)
        {
            batchEnd = sequence + announced - 1;
            announced = 0;
        }
        if (sequence <= touchedThrough || sequence >= batchEnd)
        {
            return;
        }
        final long last = Math.min(batchEnd, sequence + AHEAD - 1);
        touchedThrough = last;
        int count = 0;
        for (long s = sequence; s <= last; s++)
        {
            final WriteCommand command = ring.get(s);
            if (command.kind == WriteCommand.PUT ||
                (command.kind == WriteCommand.DELETE && command.rangeMode == WriteCommand.SINGLE_KEY))
            {
                slots[count++] = OffHeapIndex.hashOf(command.key, 0, command.keyLength);
            }
        }
        for (int i = 0; i < count; i++)
        {
            slots[i] = index.touchHome(slots[i]);
        }
        long loaded = 0;
        for (int i = 0; i < count; i++)
        {
            loaded += index.touchNode(slots[i]);
        }
        kept += loaded;
    }

    /** @return the last sequence touched so far; -1 before any. For tests. */
    long touchedThrough()
    {
        return touchedThrough;
    }
}
