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
 *   8 shape: lease flag | wide flag | narrow version &gt;&gt;&gt; 2 (8 bits) | key length (17 bits)
 *      | level (5 bits, 0 when free)
 *  12 narrow version &amp; 3 (2 bits) | value length (30 bits)
 *  16 modRev (long)  24 modRev - createRev (unsigned int)
 *  28 next[level] (4-byte block references), then the key bytes, then the value bytes, then,
 *     only when the shape's {@link #LEASE_FLAG} is set, the key's lease id (long), then, only
 *     when its {@link #WIDE_FLAG} is set, createRev and version (longs)
 * </pre>
 * The narrow fields hold what almost every key needs: etcd's version in the 10 bits the two
 * length words leave (a key changed at most {@value #NARROW_VERSION_LIMIT} times since its
 * creation) and createRev as an unsigned 32-bit distance below modRev (created fewer than 2^32
 * revisions before its last change); a key past either gets the wide trailer instead (the
 * distance and the version bits are then 0), so no value etcd allows is refused. Keys changed
 * more often than that pay 12 bytes more than the others, and every other key 4 bytes less than a
 * 32-bit version field costs (issue 16 counts bytes per key). A key without a lease pays nothing
 * for leases; a key with one pays 8 bytes (issue 15).
 * The key's hash is not stored: the hash table keeps 32 bits of it in the slot. Writer methods:
 * the writer thread only. Read methods: any thread. Nothing allocates unless an
 * {@link IndexEntry} buffer has to grow.
 */
final class Nodes
{
    /** Most forward references a node has; 4^16 keys before the top level thins out. */
    static final int MAX_LEVEL = 16;
    /**
     * Longest key a node holds: the 17 bits the shape leaves for it (128 KiB; the engine's keys are
     * at most 64 KiB, a secondary index's at most 4 KiB more).
     */
    static final int MAX_KEY_LENGTH = (1 << 17) - 1;
    /** Highest etcd version the narrow fields hold; one more needs the wide trailer. */
    static final int NARROW_VERSION_LIMIT = (1 << 10) - 1;

    static final int SHAPE_OFFSET = BlockArena.STATE_OFFSET;
    static final int VALUE_LENGTH_OFFSET = 12;
    static final int MOD_REVISION_OFFSET = 16;
    static final int CREATE_DISTANCE_OFFSET = 24;
    static final int NEXT_OFFSET = 28;
    /** Bytes of the wide trailer: createRev and version as longs. */
    static final int WIDE_BYTES = 2 * Long.BYTES;
    private static final long NARROW_DISTANCE_LIMIT = 0xFFFF_FFFFL;

    private static final int LEVEL_BITS = 5;
    private static final int LEVEL_MASK = (1 << LEVEL_BITS) - 1;
    private static final int KEY_LENGTH_MASK = MAX_KEY_LENGTH;
    /** The level and key length: what a node keeps for its life. */
    private static final int FIXED_SHAPE_MASK = KEY_LENGTH_MASK << LEVEL_BITS | LEVEL_MASK;
    private static final int VERSION_HIGH_SHIFT = 22;
    private static final int VERSION_HIGH_MASK = 0xFF;
    private static final int VALUE_LENGTH_BITS = 30;
    private static final int VALUE_LENGTH_MASK = (1 << VALUE_LENGTH_BITS) - 1;
    private static final int VERSION_LOW_BITS = 2;
    /** Set in the shape when the node ends with a lease id. */
    static final int LEASE_FLAG = 1 << 31;
    /** Set in the shape when createRev and version are in the wide trailer, not the narrow fields. */
    static final int WIDE_FLAG = 1 << 30;

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
     *         unsigned 32-bit distance below modRev and the version up to {@value #NARROW_VERSION_LIMIT}.
     */
    static boolean wide(final long createRevision, final long modRevision, final long version)
    {
        return Long.compareUnsigned(modRevision - createRevision, NARROW_DISTANCE_LIMIT) > 0 ||
            Long.compareUnsigned(version, NARROW_VERSION_LIMIT) > 0;
    }

    private static int leaseBytes(final int shape)
    {
        return (shape & LEASE_FLAG) == 0 ? 0 : Long.BYTES;
    }

    private static int trailerBytes(final int shape)
    {
        return leaseBytes(shape) + ((shape & WIDE_FLAG) == 0 ? 0 : WIDE_BYTES);
    }

    private static int keyLength(final int shape)
    {
        return shape >>> LEVEL_BITS & KEY_LENGTH_MASK;
    }

    private static int valueLength(final int valueWord)
    {
        return valueWord & VALUE_LENGTH_MASK;
    }

    /** The shape of a node with this level and key length; the version's high bits only when narrow. */
    private static int shape(
        final int fixedShape, final long lease, final long createRevision, final long modRevision, final long version)
    {
        final boolean wide = wide(createRevision, modRevision, version);
        final int versionHigh = wide ? 0 : (int)version >>> VERSION_LOW_BITS << VERSION_HIGH_SHIFT;
        return fixedShape | versionHigh | (lease == 0 ? 0 : LEASE_FLAG) | (wide ? WIDE_FLAG : 0);
    }

    /** The word at {@link #VALUE_LENGTH_OFFSET}: the value length and, in a narrow shape, the version's low bits. */
    private static int valueWord(final int shape, final int valueLength, final long version)
    {
        final int versionLow = (shape & WIDE_FLAG) == 0 ? (int)version << VALUE_LENGTH_BITS : 0;
        return versionLow | valueLength;
    }

    private static long narrowVersion(final int shape, final int valueWord)
    {
        return (shape >>> VERSION_HIGH_SHIFT & VERSION_HIGH_MASK) << VERSION_LOW_BITS | valueWord >>> VALUE_LENGTH_BITS;
    }

    /**
     * Writes modRev, the lease and, where the shape's flags say, createRev and the version (the
     * narrow version's bits are in the shape and value word already); the value ends at
     * {@code valueEnd}.
     */
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
        }
        else
        {
            final int wideAt = valueEnd + leaseBytes(shape);
            buffer.putInt(offset + CREATE_DISTANCE_OFFSET, 0);
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
        return keyLength(buffer.getInt(offset + SHAPE_OFFSET));
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
        final int shape = shape(keyLength << LEVEL_BITS | level, lease, createRevision, modRevision, version);
        buffer.putInt(offset + SHAPE_OFFSET, shape);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueWord(shape, valueLength, version));
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
        final int shape = shape(oldShape & FIXED_SHAPE_MASK, lease, createRevision, modRevision, version);
        final int valueAt = offset + nextOffset(shape & LEVEL_MASK) + keyLength(shape);
        SeqLock.beginWrite(buffer, offset);
        buffer.putInt(offset + SHAPE_OFFSET, shape);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueWord(shape, valueLength, version));
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
        final int keyLength = keyLength(shape);
        final int valueWord = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        final int valueLength = valueLength(valueWord);
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
            version = narrowVersion(shape, valueWord);
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
     * The createRevision of a live node, read in place (what {@link #copyEntry} reports, without
     * copying the key and value); the writer thread only, which needs no version check.
     *
     * @param buffer chunk holding the node.
     * @param offset of the node.
     * @return the node's createRevision.
     */
    static long createRevision(final UnsafeBuffer buffer, final int offset)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        final long modRevision = buffer.getLong(offset + MOD_REVISION_OFFSET);
        if ((shape & WIDE_FLAG) == 0)
        {
            return modRevision - Integer.toUnsignedLong(buffer.getInt(offset + CREATE_DISTANCE_OFFSET));
        }
        final int valueEnd = offset + nextOffset(shape & LEVEL_MASK) + keyLength(shape) +
            valueLength(buffer.getInt(offset + VALUE_LENGTH_OFFSET));
        return buffer.getLong(valueEnd + leaseBytes(shape));
    }

    /**
     * Whether the block holds a live node whose lengths describe bytes inside the block. A reader
     * racing the writer checks this before following them, so a torn read never reads out of
     * bounds.
     */
    static boolean wellFormed(final UnsafeBuffer buffer, final int offset)
    {
        final int valueWord = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        return fits(buffer, offset, buffer.getInt(offset + SHAPE_OFFSET), valueLength(valueWord));
    }

    /** Whether a live node with this shape and value length lies inside the block. */
    private static boolean fits(final UnsafeBuffer buffer, final int offset, final int shape, final int valueLength)
    {
        final int level = shape & LEVEL_MASK;
        return level >= 1 && level <= MAX_LEVEL &&
            nodeLength(level, keyLength(shape), valueLength) + trailerBytes(shape) <=
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
            buffer, offset + nextOffset(shape & LEVEL_MASK), keyLength(shape), key, keyOffset, keyLength);
    }

    /**
     * Whether the node's key equals the given key; the caller checked {@link #wellFormed}.
     */
    static boolean holdsKey(
        final UnsafeBuffer buffer, final int offset, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int shape = buffer.getInt(offset + SHAPE_OFFSET);
        return keyLength(shape) == keyLength &&
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
