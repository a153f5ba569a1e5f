package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.kv.KeyValue;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Append-only storage for the key-values one range read collects, packed into a few large byte
 * arrays instead of three heap objects per key-value: a million-key read allocates about a
 * hundred arrays, which a young collection reclaims (or, when they are humongous, frees) without
 * tracing a million objects while the read is still running.
 *
 * <p>An entry is addressed by a long, {@code chunk << 32 | offset}, that grows with the order of
 * appends, so sorting addresses by (key, address) keeps appends of one key in their order.
 * Layout of an entry: key length (int), value length (int, -1 for "absent"), createRevision,
 * modRevision, version, lease (longs), then the key and the value bytes.
 *
 * <p>Chunks double from 4 KiB while a doubled chunk stays under half the largest, then are all the
 * largest, {@link UncopiedChunkSize}: with G1 one heap region, an array G1 never copies, so the
 * bulk of a big read is never copied by the young pauses it meets (each of which stops the
 * writer), whatever the heap's size; a small read allocates as little as before. The waste is
 * bounded by the last chunk: at most as much as the chunks before it, and at most one region.
 * An entry larger than the next chunk gets a chunk of exactly its size.
 *
 * <p>One thread fills it; once handed over (to a {@link PackedKeyValues}) it is read-only and may
 * be read from any thread. Allocates only its chunks (and, rarely, their index arrays).
 */
final class KeyValueArena
{
    private static final int HEADER = 2 * Integer.BYTES + 4 * Long.BYTES;
    private static final int FIRST_CHUNK = 4 << 10;
    /**
     * Doubled chunks below this stay under half of any G1 region (1 MiB at least), so the JVM's
     * options, whose first look costs tens of milliseconds, are read only by a read that grows past it.
     */
    private static final int LOOK_UP_LARGEST_FROM = 256 << 10;
    /** Stands for "this JVM's {@link UncopiedChunkSize}" as the largest chunk. */
    private static final int JVM_LARGEST = 0;
    private static final int VALUE_LENGTH = Integer.BYTES;
    private static final int CREATE = 2 * Integer.BYTES;
    private static final int MOD = CREATE + Long.BYTES;
    private static final int VERSION = MOD + Long.BYTES;
    private static final int LEASE = VERSION + Long.BYTES;

    private byte[][] chunks = new byte[8][];
    private UnsafeBuffer[] views = new UnsafeBuffer[8];
    private int chunkCount;
    private int position;
    private int nextChunkSize = FIRST_CHUNK;
    private final int largestChunk;

    /**
     * An arena whose largest chunk is one a young collection never copies ({@link UncopiedChunkSize}).
     */
    KeyValueArena()
    {
        this(JVM_LARGEST);
    }

    /**
     * An arena with a given largest chunk: for tests, which want many chunks under few entries.
     *
     * @param largestChunk the largest chunk in bytes, at least {@code 2 * FIRST_CHUNK}.
     */
    KeyValueArena(final int largestChunk)
    {
        assert largestChunk == JVM_LARGEST || largestChunk >= 2 * FIRST_CHUNK;
        this.largestChunk = largestChunk;
    }

    /**
     * Appends an entry; allocates only when the current chunk is full.
     *
     * @param key            holds the key.
     * @param keyOffset      where it starts.
     * @param keyLength      its length.
     * @param value          holds the value (ignored when absent).
     * @param valueOffset    where it starts.
     * @param valueLength    its length, or -1 for a key absent at the read's revision.
     * @param createRevision the key's createRevision.
     * @param modRevision    its modRevision.
     * @param version        its version.
     * @param lease          its lease id, 0 for none.
     * @return the entry's address.
     */
    long append(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version, final long lease)
    {
        final int length = HEADER + keyLength + Math.max(valueLength, 0);
        final long address = reserve(length);
        final UnsafeBuffer view = views[chunkCount - 1];
        final int at = offset(address);
        view.putInt(at, keyLength);
        view.putInt(at + VALUE_LENGTH, valueLength);
        view.putLong(at + CREATE, createRevision);
        view.putLong(at + MOD, modRevision);
        view.putLong(at + VERSION, version);
        view.putLong(at + LEASE, lease);
        view.putBytes(at + HEADER, key, keyOffset, keyLength);
        if (valueLength > 0)
        {
            view.putBytes(at + HEADER + keyLength, value, valueOffset, valueLength);
        }
        return address;
    }

    /**
     * @param address an entry's address.
     * @return true when the entry says its key was absent.
     */
    boolean isAbsent(final long address)
    {
        return views[chunk(address)].getInt(offset(address) + VALUE_LENGTH) < 0;
    }

    /**
     * @param address an entry's address.
     * @return the entry's modRevision.
     */
    long modRevision(final long address)
    {
        return views[chunk(address)].getLong(offset(address) + MOD);
    }

    /**
     * Compares two entries' keys as unsigned bytes; allocates nothing.
     *
     * @return negative, zero or positive as {@code a}'s key sorts before, with or after {@code b}'s.
     */
    int compareKeys(final long a, final long b)
    {
        final byte[] aChunk = chunks[chunk(a)];
        final byte[] bChunk = chunks[chunk(b)];
        final int aKey = offset(a) + HEADER;
        final int bKey = offset(b) + HEADER;
        return Arrays.compareUnsigned(
            aChunk, aKey, aKey + keyLength(a), bChunk, bKey, bKey + keyLength(b));
    }

    /**
     * Compares an entry's key with a key, as unsigned bytes; allocates nothing.
     *
     * @return negative, zero or positive as the entry's key sorts before, with or after {@code key}.
     */
    int compareKey(final long address, final byte[] key)
    {
        final int at = offset(address) + HEADER;
        return Arrays.compareUnsigned(chunks[chunk(address)], at, at + keyLength(address), key, 0, key.length);
    }

    /**
     * @param address an entry's address.
     * @return a new key-value holding copies of the entry's bytes.
     */
    KeyValue keyValue(final long address)
    {
        final UnsafeBuffer view = views[chunk(address)];
        final int at = offset(address);
        final int keyLength = view.getInt(at);
        final int valueLength = Math.max(view.getInt(at + VALUE_LENGTH), 0);
        final byte[] key = new byte[keyLength];
        final byte[] value = new byte[valueLength];
        view.getBytes(at + HEADER, key);
        view.getBytes(at + HEADER + keyLength, value);
        return new KeyValue(key, value, view.getLong(at + CREATE), view.getLong(at + MOD), view.getLong(at + VERSION),
            view.getLong(at + LEASE));
    }

    private int keyLength(final long address)
    {
        return views[chunk(address)].getInt(offset(address));
    }

    /** Claims {@code length} bytes at the end, in a new chunk when the current one is full. */
    private long reserve(final int length)
    {
        if (chunkCount == 0 || position + length > chunks[chunkCount - 1].length)
        {
            newChunk(length);
        }
        final int at = position;
        position = at + length;
        return (long)(chunkCount - 1) << 32 | at;
    }

    private void newChunk(final int entryLength)
    {
        if (chunkCount == chunks.length)
        {
            chunks = Arrays.copyOf(chunks, chunkCount * 2);
            views = Arrays.copyOf(views, chunkCount * 2);
        }
        final byte[] chunk = new byte[Math.max(nextChunkSize, entryLength)];
        chunks[chunkCount] = chunk;
        views[chunkCount] = new UnsafeBuffer(chunk);
        chunkCount++;
        position = 0;
        nextChunkSize = grown(nextChunkSize);
    }

    /** @return the chunk after one of {@code size} bytes: double it, or the largest once that is half of it or more. */
    private int grown(final int size)
    {
        final int doubled = size * 2;
        if (largestChunk == JVM_LARGEST && doubled < LOOK_UP_LARGEST_FROM)
        {
            return doubled;
        }
        final int largest = largestChunk == JVM_LARGEST ? UncopiedChunkSize.BYTES : largestChunk;
        return size < largest && doubled < largest / 2 ? doubled : largest;
    }

    /** @return how many chunks it holds; for tests. */
    int chunkCount()
    {
        return chunkCount;
    }

    /**
     * @param chunk a chunk's index, less than {@link #chunkCount()}.
     * @return that chunk's length in bytes; for tests.
     */
    int chunkLength(final int chunk)
    {
        return chunks[chunk].length;
    }

    private static int chunk(final long address)
    {
        return (int)(address >>> 32);
    }

    private static int offset(final long address)
    {
        return (int)address;
    }
}
