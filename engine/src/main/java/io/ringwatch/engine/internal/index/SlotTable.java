package io.ringwatch.engine.internal.index;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;

import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One open-addressing table of node references in direct memory, probed linearly. A slot is
 * {@link #EMPTY}, {@link #TOMBSTONE}, {@link #MOVED}, or a node's 32-bit block reference with 32 bits
 * of the key's hash as a tag. The tag holds the bits that chose the slot, so a move between tables
 * reads no node, and its other bits reject almost every probe that meets another key without
 * loading that key's node (at a million keys, all but one in 2,048 of the keys that share a home).
 * <p>
 * Homes by multiplication ({@code tag * capacity / 2^32}, the tag unsigned): any capacity, not only a
 * power of two, and a home that grows with the tag, so slots taken in slot order from one table land
 * in nearly ascending slots of another of any size (a move writes the new table almost sequentially).
 * <p>
 * Slot writes: the writer thread only, with release semantics. Slot reads: any thread. Allocates
 * its memory once, at construction: zeroed ({@link #SlotTable(int)}), or, for a table the writer
 * prepares ahead of a growth, uncleared ({@link #uncleared(int)}), which costs no page touched at
 * allocation; the writer then clears it {@link #clearSome(int) a step at a time} and publishes it only
 * once {@link #isCleared() cleared}, so no reader ever sees a slot that was not {@link #EMPTY}.
 */
final class SlotTable
{
    static final long EMPTY = 0;
    /** Reference 1 is inside chunk 0, which the arena never allocates: never a node. */
    static final long TOMBSTONE = 1;
    /**
     * A slot whose node was moved to the next table: passed over like a tombstone, but never reused
     * (the table takes no more inserts once its slots move). Reference 2 is in chunk 0 too.
     */
    static final long MOVED = 2;
    /** Most slots: the bytes must fit one direct buffer. */
    static final int MAX_CAPACITY = Integer.MAX_VALUE / Long.BYTES;

    private static final long REF_MASK = 0xFFFF_FFFFL;
    /** Frees uncleared tables' memory once unreachable: old tables are dropped while readers may hold them. */
    private static final Cleaner CLEANER = Cleaner.create();

    /** The zeroed table's memory, or null for an uncleared one (then {@code freeing} frees it). */
    private final ByteBuffer memory;
    private final Cleaner.Cleanable freeing;
    private final UnsafeBuffer slots;
    private final int capacity;
    /** Writer thread only: slots from 0 below this are EMPTY; the capacity for a zeroed table. */
    private int cleared;

    /**
     * A zeroed table.
     *
     * @param capacity number of slots, 1 to {@link #MAX_CAPACITY}.
     */
    SlotTable(final int capacity)
    {
        memory = ByteBuffer.allocateDirect(capacity * Long.BYTES);
        freeing = null;
        slots = new UnsafeBuffer(memory);
        this.capacity = capacity;
        cleared = capacity;
    }

    private SlotTable(final int capacity, final long address)
    {
        memory = null;
        freeing = CLEANER.register(this, () -> UnsafeApi.freeMemory(address));
        slots = new UnsafeBuffer(address, capacity * Long.BYTES);
        this.capacity = capacity;
    }

    /**
     * A table whose memory holds whatever it held before: no byte is written, so no page is touched
     * (zeroing a table of 12 million slots costs tens of milliseconds). Clear it with
     * {@link #clearSome(int)} before any use. Its memory is freed by {@link #free()}, or once the
     * table is unreachable.
     *
     * @param capacity number of slots, 1 to {@link #MAX_CAPACITY}.
     * @return the table, not cleared.
     * @throws OutOfMemoryError if the memory is not there.
     */
    static SlotTable uncleared(final int capacity)
    {
        return new SlotTable(capacity, UnsafeApi.allocateMemory((long)capacity * Long.BYTES));
    }

    /**
     * Clears up to {@code most} more slots of a table made by {@link #uncleared(int)}; the writer
     * thread only, before the table is published.
     *
     * @return whether every slot is cleared now.
     */
    boolean clearSome(final int most)
    {
        final int end = (int)Math.min(capacity, (long)cleared + most);
        if (end > cleared)
        {
            slots.setMemory(cleared * Long.BYTES, (end - cleared) * Long.BYTES, (byte)0);
            cleared = end;
        }
        return cleared == capacity;
    }

    /**
     * @return whether every slot is {@link #EMPTY} or was written since; the writer thread only.
     */
    boolean isCleared()
    {
        return cleared == capacity;
    }

    /**
     * @return number of slots.
     */
    int capacity()
    {
        return capacity;
    }

    /**
     * @return bytes of direct memory held.
     */
    long bytes()
    {
        return (long)capacity() * Long.BYTES;
    }

    /**
     * @return the tag a slot for a key with {@code hash} carries.
     */
    static int tag(final long hash)
    {
        return (int)hash;
    }

    /**
     * @return the slot a probe for {@code tag} starts at.
     */
    int home(final int tag)
    {
        return (int)(((tag & REF_MASK) * capacity) >>> 32);
    }

    /**
     * @return the slot after {@code slot}, wrapping.
     */
    int next(final int slot)
    {
        final int next = slot + 1;
        return next == capacity ? 0 : next;
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
     * @return the slot content naming node {@code ref} for a key with {@code tag}.
     */
    static long slotFor(final int tag, final int ref)
    {
        return (long)tag << 32 | (ref & REF_MASK);
    }

    /**
     * @return whether the slot names a node whose tag equals {@code tag}.
     */
    static boolean mayHold(final long slot, final int tag)
    {
        return (int)(slot >>> 32) == tag && holdsNode(slot);
    }

    /**
     * @return whether the slot names a node: its reference is past the three markers (a node's is
     * never in chunk 0).
     */
    static boolean holdsNode(final long slot)
    {
        return (slot & REF_MASK) > MOVED;
    }

    /**
     * @return the tag of a slot that names a node.
     */
    static int tagOf(final long slot)
    {
        return (int)(slot >>> 32);
    }

    /**
     * @return the node reference a slot names.
     */
    static int node(final long slot)
    {
        return (int)slot;
    }

    /**
     * Frees the direct memory now; only once no reader can hold this table.
     */
    void free()
    {
        if (freeing != null)
        {
            freeing.clean();
        }
        else
        {
            BufferUtil.free(memory);
        }
    }
}
