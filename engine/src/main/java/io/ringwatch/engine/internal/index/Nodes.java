package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of an index node: one arena block per key holding its metadata, its skip-list forward
 * references, its key and its value. The block's {@link SeqLock} version guards all of it,
 * forward references included, so a reader validating a node also validates where it leads.
 * <pre>
 *   0 version (int)  4 block units (int, the arena's)
 *   8 shape: lease flag | wide flag | key length &lt;&lt; 5 | level (0 when free)  12 value length
 *  16 modRev (long)  24 modRev - createRev (unsigned int)  28 version (etcd's, unsigned int)
 *  32 next[level] (4-byte block references), then the key bytes, then the value bytes, then,
 *     only when the shape's {@link #LEASE_FLAG} is set, the key's lease id (long), then, only
 *     when its {@link #WIDE_FLAG} is set, createRev and version (longs)
 * </pre>
 * The narrow fields at 24 and 28 hold what almost every key needs (a key changed fewer than 2^32
 * times, created fewer than 2^32 revisions before its last change); a key past either gets the
 * wide trailer instead (24 to 31 are then unused), so no value etcd allows is refused. A key
 * without a lease pays nothing for leases; a key with one pays 8 bytes (issue 15; issue 16 counts
 * bytes per key).
 * The key's hash is not stored: the hash table keeps 32 bits of it in the slot. Writer methods:
 * the writer thread only. Read methods: any thread. Nothing allocates unless an
 * {@link IndexEntry} buffer has to grow.
 */
final class Nodes
{
    /** Most forward references a node has; 4^16 keys before the top level thins out. */
    static final int MAX_LEVEL = 16;
    /** Longest key a node holds: the bits the shape leaves for it (32 MiB). */
    static final int MAX_KEY_LENGTH = (1 << 25) - 1;

    static final int SHAPE_OFFSET = BlockArena.STATE_OFFSET;
    static final int VALUE_LENGTH_OFFSET = 12;
    static final int MOD_REVISION_OFFSET = 16;
    static final int CREATE_DISTANCE_OFFSET = 24;
    static final int NARROW_VERSION_OFFSET = 28;
    static final int NEXT_OFFSET = 32;
    /** Bytes of the wide trailer: createRev and version as longs. */
    static final int WIDE_BYTES = 2 * Long.BYTES;
    private static final long NARROW_LIMIT = 0xFFFF_FFFFL;

    private static final int LEVEL_BITS = 5;
    private static final int LEVEL_MASK = (1 << LEVEL_BITS) - 1;
    /** Set in the shape when the node ends with a lease id. */
    static final int LEASE_FLAG = 1 << 31;
    /** Set in the shape when createRev and version are in the wide trailer, not the narrow fields. */
    static final int WIDE_FLAG = 1 << 30;
    private static final int KEY_LENGTH_MASK = ~(LEASE_FLAG | WIDE_FLAG);

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
     * @return bytes a node needs, header and trailers (lease when {@code lease} is not 0, wide
     *         metadata when {@code wide}) included.
     */
    static long nodeLength(
        final int level, final int keyLength, final int valueLength, final long lease, final boolean wide)
    {
        return nodeLength(level, keyLength, valueLength) + (lease == 0 ? 0 : Long.BYTES) + (wide ? WIDE_BYTES : 0);
    }

    /**
     * @return whether the metadata needs the wide trailer: the narrow fields hold createRev as an
     *         unsigned 32-bit distance below modRev and the version as an unsigned 32-bit count.
     */
    static boolean wide(final long createRevision, final long modRevision, final long version)
    {
        return Long.compareUnsigned(modRevision - createRevision, NARROW_LIMIT) > 0 ||
            Long.compareUnsigned(version, NARROW_LIMIT) > 0;
    }

    private static int leaseBytes(final int shape)
    {
        return (shape & LEASE_FLAG) == 0 ? 0 : Long.BYTES;
    }

    private static int trailerBytes(final int shape)
    {
        return leaseBytes(shape) + ((shape & WIDE_FLAG) == 0 ? 0 : WIDE_BYTES);
    }

    private static int shapeFlags(final long lease, final boolean wide)
    {
        return (lease == 0 ? 0 : LEASE_FLAG) | (wide ? WIDE_FLAG : 0);
    }

    /** Writes createRev and version where the shape's flags say; the value ends at {@code valueEnd}. */
    private static void putMetadata(
        final UnsafeBuffer buffer,
        final int offset,
        final int valueEnd,
        final int shape,
        final long lease,
        final long createRevision,
        final long modRevision,
        final long version)
    {
        buffer.putLong(offset + MOD_REVISION_OFFSET, modRevision);
        if (lease != 0)
        {
            buffer.putLong(valueEnd, lease);
        }
        if ((shape & WIDE_FLAG) == 0)
        {
            buffer.putInt(offset + CREATE_DISTANCE_OFFSET, (int)(modRevision - createRevision));
            buffer.putInt(offset + NARROW_VERSION_OFFSET, (int)version);
        }
        else
        {
            final int wideAt = valueEnd + leaseBytes(shape);
            buffer.putLong(offset + CREATE_DISTANCE_OFFSET, 0);
            buffer.putLong(wideAt, createRevision);
            buffer.putLong(wideAt + Long.BYTES, version);
        }
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
        final int shape =
            keyLength << LEVEL_BITS | level | shapeFlags(lease, wide(createRevision, modRevision, version));
        buffer.putInt(offset + SHAPE_OFFSET, shape);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
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
        putMetadata(buffer, offset, keyAt + keyLength + valueLength, shape, lease, createRevision, modRevision, version);
    }

    /**
     * @return whether a value of {@code valueLength} bytes, with this lease and metadata (wide or
     *         not), fits in this node's block.
     */
    static boolean valueFits(
        final UnsafeBuffer buffer,
        final int offset,
        final int valueLength,
        final long lease,
        final long createRevision,
        final long modRevision,
        final long version)
    {
        final long needed = nodeLength(
            level(buffer, offset), keyLength(buffer, offset), valueLength, lease, wide(createRevision, modRevision, version));
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
        final long createRevision,
        final long modRevision,
        final long version)
    {
        final int oldShape = buffer.getInt(offset + SHAPE_OFFSET);
        final int shape = oldShape & KEY_LENGTH_MASK | shapeFlags(lease, wide(createRevision, modRevision, version));
        final int valueAt = offset + nextOffset(shape & LEVEL_MASK) + ((shape & KEY_LENGTH_MASK) >>> LEVEL_BITS);
        SeqLock.beginWrite(buffer, offset);
        buffer.putInt(offset + SHAPE_OFFSET, shape);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
        if (valueLength > 0)
        {
            buffer.putBytes(valueAt, value, valueOffset, valueLength);
        }
        putMetadata(buffer, offset, valueAt + valueLength, shape, lease, createRevision, modRevision, version);
        SeqLock.endWrite(buffer, offset);
    }

    /**
     * Copies a node into {@code into}: the writer thread, which owns the node, or a reader that
     * validates afterwards. A racing reader may see a shape and lengths other than those
     * {@link #wellFormed} checked; lengths that do not fit the block are not followed ({@code into}
     * is cleared), and the reader's version check fails, since only the writer changes them.
     */
    static void copyEntry(final UnsafeBuffer buffer, final int offset, final IndexEntry into)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        final int keyLength = (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS;
        final int valueLength = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        if (!fits(buffer, offset, shape, valueLength))
        {
            into.clear();
            return;
        }
        final int keyAt = offset + nextOffset(shape & LEVEL_MASK);
        final ExpandableArrayBuffer key = into.keyBuffer();
        key.checkLimit(keyLength);
        buffer.getBytes(keyAt, key, 0, keyLength);
        final ExpandableArrayBuffer value = into.valueBuffer();
        value.checkLimit(valueLength);
        buffer.getBytes(keyAt + keyLength, value, 0, valueLength);
        final int valueEnd = keyAt + keyLength + valueLength;
        final long modRevision = buffer.getLong(offset + MOD_REVISION_OFFSET);
        final long createRevision;
        final long version;
        if ((shape & WIDE_FLAG) == 0)
        {
            createRevision = modRevision - Integer.toUnsignedLong(buffer.getInt(offset + CREATE_DISTANCE_OFFSET));
            version = Integer.toUnsignedLong(buffer.getInt(offset + NARROW_VERSION_OFFSET));
        }
        else
        {
            final int wideAt = valueEnd + leaseBytes(shape);
            createRevision = buffer.getLong(wideAt);
            version = buffer.getLong(wideAt + Long.BYTES);
        }
        into.set(
            keyLength,
            valueLength,
            createRevision,
            modRevision,
            version,
            leaseBytes(shape) == 0 ? 0 : buffer.getLong(valueEnd));
    }

    /**
     * Whether the block holds a live node whose lengths describe bytes inside the block. A reader
     * racing the writer checks this before following them, so a torn read never reads out of
     * bounds.
     */
    static boolean wellFormed(final UnsafeBuffer buffer, final int offset)
    {
        return fits(buffer, offset, buffer.getInt(offset + SHAPE_OFFSET), buffer.getInt(offset + VALUE_LENGTH_OFFSET));
    }

    /** Whether a live node with this shape and value length lies inside the block. */
    private static boolean fits(final UnsafeBuffer buffer, final int offset, final int shape, final int valueLength)
    {
        final int level = shape & LEVEL_MASK;
        return level >= 1 && level <= MAX_LEVEL && valueLength >= 0 &&
            nodeLength(level, (shape & KEY_LENGTH_MASK) >>> LEVEL_BITS, valueLength) + trailerBytes(shape) <=
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
