package io.ringwatch.engine.index;

import java.nio.ByteBuffer;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One open-addressing table of node addresses in direct memory, probed linearly. A slot is
 * {@link #EMPTY}, {@link #TOMBSTONE}, or a node address with the top 12 bits of the key's hash as
 * a tag, so most probes that hit another key are rejected without touching its node.
 * <p>
 * Slot writes: the writer thread only, with release semantics. Slot reads: any thread. Allocates
 * its memory once, at construction.
 */
final class SlotTable
{
    static final long EMPTY = 0;
    /** Odd, so never a node address (blocks are 64-byte aligned). */
    static final long TOMBSTONE = 1;

    private static final int TAG_SHIFT = 52;
    private static final long ADDRESS_MASK = (1L << TAG_SHIFT) - 1;

    private final ByteBuffer memory;
    private final UnsafeBuffer slots;
    private final int mask;

    /**
     * @param capacity number of slots, a power of two.
     */
    SlotTable(final int capacity)
    {
        memory = ByteBuffer.allocateDirect(capacity * Long.BYTES);
        slots = new UnsafeBuffer(memory);
        mask = capacity - 1;
    }

    /**
     * @return number of slots.
     */
    int capacity()
    {
        return mask + 1;
    }

    /**
     * @return bytes of direct memory held.
     */
    long bytes()
    {
        return (long)capacity() * Long.BYTES;
    }

    /**
     * @return the slot a probe for {@code hash} starts at.
     */
    int home(final long hash)
    {
        return (int)hash & mask;
    }

    /**
     * @return the slot after {@code slot}, wrapping.
     */
    int next(final int slot)
    {
        return (slot + 1) & mask;
    }

    /**
     * @return the slot's content, read with acquire semantics; any thread.
     */
    long get(final int slot)
    {
        return slots.getLongAcquire(slot * Long.BYTES);
    }

    /**
     * Stores a slot with release semantics, so a reader that sees it sees the node it names.
     */
    void set(final int slot, final long content)
    {
        slots.putLongRelease(slot * Long.BYTES, content);
    }

    /**
     * @return the slot content naming {@code node} for a key with {@code hash}.
     */
    static long slotFor(final long hash, final long node)
    {
        return tag(hash) | node;
    }

    /**
     * @return the tag bits a slot for {@code hash} carries.
     */
    static long tag(final long hash)
    {
        return hash & ~ADDRESS_MASK;
    }

    /**
     * @return whether the slot names a node whose tag matches {@code hash}.
     */
    static boolean mayHold(final long slot, final long hash)
    {
        return slot != EMPTY && slot != TOMBSTONE && (slot & ~ADDRESS_MASK) == tag(hash);
    }

    /**
     * @return the node address a slot names.
     */
    static long node(final long slot)
    {
        return slot & ADDRESS_MASK;
    }

    /**
     * Frees the direct memory now; only once no reader can hold this table.
     */
    void free()
    {
        BufferUtil.free(memory);
    }
}
