package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of an index node: one arena block per key holding its metadata, its skip-list forward
 * references, its key and its value. The block's {@link SeqLock} version guards all of it,
 * forward references included, so a reader validating a node also validates where it leads.
 * <pre>
 *   0 version (int)  4 block units (int, the arena's)  8 shape: key length &lt;&lt; 5 | level (0 when free)
 *  12 value length  16 createRev  24 modRev  32 version (etcd's)
 *  40 next[level] (4-byte block references), then the key bytes, then the value bytes, then,
 *     only when the shape's {@link #LEASE_FLAG} is set, the key's lease id (long)
 * </pre>
 * A key without a lease pays nothing for leases; a key with one pays 8 bytes (issue 15; issue 16
 * counts bytes per key).
 * The key's hash is not stored: the hash table keeps 32 bits of it in the slot. Writer methods:
 * the writer thread only. Read methods: any thread. Nothing allocates unless an
 * {@link IndexEntry} buffer has to grow.
 */
final class Nodes
{
    /** Most forward references a node has; 4^16 keys before the top level thins out. */
    static final int MAX_LEVEL = 16;
    /** Longest key a node holds. */
    static final int MAX_KEY_LENGTH = (1 << 26) - 1;

    static final int SHAPE_OFFSET = BlockArena.STATE_OFFSET;
    static final int VALUE_LENGTH_OFFSET = 12;
    static final int CREATE_REVISION_OFFSET = 16;
    static final int MOD_REVISION_OFFSET = 24;
    static final int ENTRY_VERSION_OFFSET = 32;
    static final int NEXT_OFFSET = 40;

    private static final int LEVEL_BITS = 5;
    private static final int LEVEL_MASK = (1 << LEVEL_BITS) - 1;
    /** Set in the shape when the node ends with a lease id: the one bit the key length leaves free. */
    static final int LEASE_FLAG = 1 << 31;
    private static final int KEY_LENGTH_MASK = ~LEASE_FLAG;

    /** Outcome of {@link #readIfKey}: the node holds the key and was copied. */
    static final int MATCH = 0;
    /** Outcome of {@link #readIfKey}: the node held something else when read. */
    static final int OTHER = 1;

    private Nodes()
    {
    }

    /**
     * @return bytes a node needs, header included.
     */
    static long nodeLength(final int level, final int keyLength, final int valueLength)
    {
        return NEXT_OFFSET + (long)Integer.BYTES * level + keyLength + valueLength;
    }

    /**
     * @return bytes a node needs, header and lease trailer (when {@code lease} is not 0) included.
     */
    static long nodeLength(final int level, final int keyLength, final int valueLength, final long lease)
    {
        return nodeLength(level, keyLength, valueLength) + leaseBytes(lease);
    }

    private static int leaseBytes(final long lease)
    {
        return lease == 0 ? 0 : Long.BYTES;
    }

    private static int leaseBytes(final int shape)
    {
        return (shape & LEASE_FLAG) == 0 ? 0 : Long.BYTES;
    }

    /**
     * @return offset, within the node, of the forward reference at {@code level}.
     */
    static int nextOffset(final int level)
    {
        return NEXT_OFFSET + Integer.BYTES * level;
    }

    /**
     * @return the node's level (number of forward references); 0 for a free block.
     */
    static int level(final UnsafeBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + SHAPE_OFFSET) & LEVEL_MASK;
    }

    /**
     * @return the node's key length.
     */
    static int keyLength(final UnsafeBuffer buffer, final int offset)
    {
        return (buffer.getInt(offset + SHAPE_OFFSET) & KEY_LENGTH_MASK) >>> LEVEL_BITS;
    }

    /**
     * Writes a whole node, forward references cleared; the writer thread only, inside
     * {@link SeqLock#beginWrite} on the node, kept open until the node is linked so no reader
     * sees a key before every structure holds it.
     */
    static void write(
        final UnsafeBuffer buffer,
        final int offset,
        final int level,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision,
        final long modRevision,
        final long version)
    {
        buffer.putInt(offset + SHAPE_OFFSET, keyLength << LEVEL_BITS | level | (lease == 0 ? 0 : LEASE_FLAG));
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
        buffer.putLong(offset + CREATE_REVISION_OFFSET, createRevision);
        buffer.putLong(offset + MOD_REVISION_OFFSET, modRevision);
        buffer.putLong(offset + ENTRY_VERSION_OFFSET, version);
        buffer.setMemory(offset + NEXT_OFFSET, Integer.BYTES * level, (byte)0);
        final int keyAt = offset + nextOffset(level);
        if (keyLength > 0)
        {
            buffer.putBytes(keyAt, key, keyOffset, keyLength);
        }
        if (valueLength > 0)
        {
            buffer.putBytes(keyAt + keyLength, value, valueOffset, valueLength);
        }
        if (lease != 0)
        {
            buffer.putLong(keyAt + keyLength + valueLength, lease);
        }
    }

    /**
     * @return whether a value of {@code valueLength} bytes fits in this node's block.
     */
    static boolean valueFits(final UnsafeBuffer buffer, final int offset, final int valueLength, final long lease)
    {
        final long needed = nodeLength(level(buffer, offset), keyLength(buffer, offset), valueLength, lease);
        return needed <= BlockArena.blockLength(buffer, offset);
    }

    /**
     * Replaces the value and metadata in place under the seqlock; the writer thread only.
     * The caller checked {@link #valueFits}.
     */
    static void updateValue(
        final UnsafeBuffer buffer,
        final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long modRevision,
        final long version)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        final int valueAt = offset + nextOffset(shape & LEVEL_MASK) + ((shape & KEY_LENGTH_MASK) >>> LEVEL_BITS);
        SeqLock.beginWrite(buffer, offset);
        buffer.putInt(offset + SHAPE_OFFSET, lease == 0 ? shape & KEY_LENGTH_MASK : shape | LEASE_FLAG);
        buffer.putLong(offset + MOD_REVISION_OFFSET, modRevision);
        buffer.putLong(offset + ENTRY_VERSION_OFFSET, version);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
        if (valueLength > 0)
        {
            buffer.putBytes(valueAt, value, valueOffset, valueLength);
        }
        if (lease != 0)
        {
            buffer.putLong(valueAt + valueLength, lease);
        }
        SeqLock.endWrite(buffer, offset);
    }

    /**
     * Copies a node into {@code into} without validation: the writer thread, which owns the node,
     * or a reader that validates afterwards. The caller checked {@link #wellFormed} if racing.
     */
    static void copyEntry(final UnsafeBuffer buffer, final int offset, final IndexEntry into)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        final int keyLength = (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS;
        final int valueLength = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        final int keyAt = offset + nextOffset(shape & LEVEL_MASK);
        final ExpandableArrayBuffer key = into.keyBuffer();
        key.checkLimit(keyLength);
        buffer.getBytes(keyAt, key, 0, keyLength);
        final ExpandableArrayBuffer value = into.valueBuffer();
        value.checkLimit(valueLength);
        buffer.getBytes(keyAt + keyLength, value, 0, valueLength);
        into.set(
            keyLength,
            valueLength,
            buffer.getLong(offset + CREATE_REVISION_OFFSET),
            buffer.getLong(offset + MOD_REVISION_OFFSET),
            buffer.getLong(offset + ENTRY_VERSION_OFFSET),
            leaseBytes(shape) == 0 ? 0 : buffer.getLong(keyAt + keyLength + valueLength));
    }

    /**
     * Whether the block holds a live node whose lengths describe bytes inside the block. A reader
     * racing the writer checks this before following them, so a torn read never reads out of
     * bounds.
     */
    static boolean wellFormed(final UnsafeBuffer buffer, final int offset)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        final int level = shape & LEVEL_MASK;
        final int valueLength = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        return level >= 1 && level <= MAX_LEVEL && valueLength >= 0 &&
            nodeLength(level, (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS, valueLength) + leaseBytes(shape) <=
            BlockArena.blockLength(buffer, offset);
    }

    /**
     * Compares the node's key with the given key; the caller checked {@link #wellFormed}.
     *
     * @return negative, zero or positive as the node's key sorts before, equal to or after it.
     */
    static int compareKey(
        final UnsafeBuffer buffer, final int offset, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        return Keys.compare(
            buffer, offset + nextOffset(shape & LEVEL_MASK), (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS, key, keyOffset, keyLength);
    }

    /**
     * Whether the node's key equals the given key; the caller checked {@link #wellFormed}.
     */
    static boolean holdsKey(
        final UnsafeBuffer buffer, final int offset, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        return (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS == keyLength &&
            Keys.compare(buffer, offset + nextOffset(shape & LEVEL_MASK), keyLength, key, keyOffset, keyLength) == 0;
    }

    /**
     * Reads a live node with a stable version into {@code into}; any thread.
     *
     * @param version from {@link SeqLock#readBegin} on this node.
     * @return true when the node was live and the copy is consistent with {@code version}.
     */
    static boolean readLive(final UnsafeBuffer buffer, final int offset, final int version, final IndexEntry into)
    {
        if (!wellFormed(buffer, offset))
        {
            return false;
        }
        copyEntry(buffer, offset, into);
        return SeqLock.unchanged(buffer, offset, version);
    }

    /**
     * Copies the node into {@code into} if, in one consistent read, it is live and holds the key;
     * any thread. Retries while the writer changes the node under it.
     *
     * @return {@link #MATCH} or {@link #OTHER}.
     */
    static int readIfKey(
        final UnsafeBuffer buffer,
        final int offset,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final IndexEntry into)
    {
        while (true)
        {
            final int version = SeqLock.readBegin(buffer, offset);
            final boolean holdsKey = wellFormed(buffer, offset) && holdsKey(buffer, offset, key, keyOffset, keyLength);
            if (holdsKey)
            {
                copyEntry(buffer, offset, into);
            }
            if (SeqLock.unchanged(buffer, offset, version))
            {
                return holdsKey ? MATCH : OTHER;
            }
        }
    }
}
