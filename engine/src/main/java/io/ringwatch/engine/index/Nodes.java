package io.ringwatch.engine.index;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of an index node: one arena block per key holding its metadata, its skip-list forward
 * pointers, its key and its value. The block's {@link SeqLock} version guards all of it,
 * forward pointers included, so a reader validating a node also validates where it leads.
 * <pre>
 *   0 version      8 size shift   12 state       16 hash
 *  24 createRev   32 modRev      40 version     48 key length  52 value length  56 level
 *  64 next[level] (8 bytes each), then the key bytes, then the value bytes
 * </pre>
 * Writer methods: the writer thread only. Read methods: any thread. Nothing allocates unless an
 * {@link IndexEntry} buffer has to grow.
 */
final class Nodes
{
    /** Most forward pointers a node has; 4^16 keys before the top level thins out. */
    static final int MAX_LEVEL = 16;

    static final int HASH_OFFSET = 16;
    static final int CREATE_REVISION_OFFSET = 24;
    static final int MOD_REVISION_OFFSET = 32;
    static final int ENTRY_VERSION_OFFSET = 40;
    static final int KEY_LENGTH_OFFSET = 48;
    static final int VALUE_LENGTH_OFFSET = 52;
    static final int LEVEL_OFFSET = 56;
    static final int NEXT_OFFSET = 64;

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
        return NEXT_OFFSET + (long)Long.BYTES * level + keyLength + valueLength;
    }

    /**
     * @return offset, within the node, of the forward pointer at {@code level}.
     */
    static int nextOffset(final int level)
    {
        return NEXT_OFFSET + Long.BYTES * level;
    }

    /**
     * @return the node's level (number of forward pointers).
     */
    static int level(final UnsafeBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + LEVEL_OFFSET);
    }

    /**
     * @return the stored hash of the node's key.
     */
    static long hash(final UnsafeBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + HASH_OFFSET);
    }

    /**
     * Writes a whole node, forward pointers cleared; the writer thread only, inside
     * {@link SeqLock#beginWrite} on the node, kept open until the node is linked so no reader
     * sees a key before every structure holds it.
     */
    static void write(
        final UnsafeBuffer buffer,
        final int offset,
        final long hash,
        final int level,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision,
        final long modRevision,
        final long version)
    {
        buffer.putInt(offset + BlockArena.STATE_OFFSET, BlockArena.LIVE);
        buffer.putLong(offset + HASH_OFFSET, hash);
        buffer.putLong(offset + CREATE_REVISION_OFFSET, createRevision);
        buffer.putLong(offset + MOD_REVISION_OFFSET, modRevision);
        buffer.putLong(offset + ENTRY_VERSION_OFFSET, version);
        buffer.putInt(offset + KEY_LENGTH_OFFSET, keyLength);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
        buffer.putInt(offset + LEVEL_OFFSET, level);
        buffer.setMemory(offset + NEXT_OFFSET, Long.BYTES * level, (byte)0);
        final int keyAt = offset + nextOffset(level);
        if (keyLength > 0)
        {
            buffer.putBytes(keyAt, key, keyOffset, keyLength);
        }
        if (valueLength > 0)
        {
            buffer.putBytes(keyAt + keyLength, value, valueOffset, valueLength);
        }
    }

    /**
     * @return whether a value of {@code valueLength} bytes fits in this node's block.
     */
    static boolean valueFits(final UnsafeBuffer buffer, final int offset, final int valueLength)
    {
        final long needed = nodeLength(level(buffer, offset), buffer.getInt(offset + KEY_LENGTH_OFFSET), valueLength);
        return needed <= BlockArena.blockSize(buffer, offset);
    }

    /**
     * Replaces the value and metadata in place under the seqlock; the writer thread only.
     * The caller checked {@link #valueFits}.
     */
    static void updateValue(
        final UnsafeBuffer buffer,
        final int offset,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long modRevision,
        final long version)
    {
        final int valueAt = offset + nextOffset(level(buffer, offset)) + buffer.getInt(offset + KEY_LENGTH_OFFSET);
        SeqLock.beginWrite(buffer, offset);
        buffer.putLong(offset + MOD_REVISION_OFFSET, modRevision);
        buffer.putLong(offset + ENTRY_VERSION_OFFSET, version);
        buffer.putInt(offset + VALUE_LENGTH_OFFSET, valueLength);
        if (valueLength > 0)
        {
            buffer.putBytes(valueAt, value, valueOffset, valueLength);
        }
        SeqLock.endWrite(buffer, offset);
    }

    /**
     * Copies a node into {@code into} without validation: the writer thread, which owns the node,
     * or a reader that validates afterwards. The caller checked {@link #wellFormed} if racing.
     */
    static void copyEntry(final UnsafeBuffer buffer, final int offset, final IndexEntry into)
    {
        final int keyLength = buffer.getInt(offset + KEY_LENGTH_OFFSET);
        final int valueLength = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        final int keyAt = offset + nextOffset(level(buffer, offset));
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
            buffer.getLong(offset + ENTRY_VERSION_OFFSET));
    }

    /**
     * Whether the lengths read from a node describe bytes inside its block. A reader racing the
     * writer checks this before following them, so a torn read never reads out of bounds.
     */
    static boolean wellFormed(final UnsafeBuffer buffer, final int offset)
    {
        final int level = level(buffer, offset);
        final int keyLength = buffer.getInt(offset + KEY_LENGTH_OFFSET);
        final int valueLength = buffer.getInt(offset + VALUE_LENGTH_OFFSET);
        return level >= 1 && level <= MAX_LEVEL && keyLength >= 0 && valueLength >= 0 &&
            nodeLength(level, keyLength, valueLength) <= BlockArena.blockSize(buffer, offset);
    }

    /**
     * Compares the node's key with the given key; the caller checked {@link #wellFormed}.
     *
     * @return negative, zero or positive as the node's key sorts before, equal to or after it.
     */
    static int compareKey(
        final UnsafeBuffer buffer, final int offset, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return Keys.compare(
            buffer, offset + nextOffset(level(buffer, offset)), buffer.getInt(offset + KEY_LENGTH_OFFSET),
            key, keyOffset, keyLength);
    }

    /**
     * Reads a live node with a stable version into {@code into}; any thread.
     *
     * @param version from {@link SeqLock#readBegin} on this node.
     * @return true when the node was live and the copy is consistent with {@code version}.
     */
    static boolean readLive(final UnsafeBuffer buffer, final int offset, final long version, final IndexEntry into)
    {
        if (buffer.getInt(offset + BlockArena.STATE_OFFSET) != BlockArena.LIVE || !wellFormed(buffer, offset))
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
        final long hash,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final IndexEntry into)
    {
        while (true)
        {
            final long version = SeqLock.readBegin(buffer, offset);
            final boolean holdsKey = buffer.getInt(offset + BlockArena.STATE_OFFSET) == BlockArena.LIVE &&
                buffer.getLong(offset + HASH_OFFSET) == hash &&
                wellFormed(buffer, offset) &&
                compareKey(buffer, offset, key, keyOffset, keyLength) == 0;
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
