package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The values the {@link OffHeapIndex} stress tests write, and the check a reader makes of an entry it got.
 * <p>
 * Every put in these tests is at its own revision {@code r} (1 to 5) and writes value {@code r}: a byte
 * pattern of its own length (16, 7, 200, 10, 150: the long ones outgrow a short value's block and force a
 * move) that differs from every other value at every position. A key's puts are at consecutive revisions, so
 * an entry of that key is consistent when its value is the pattern of its modRevision and its version counts
 * the puts from its createRevision up to that one.
 * <p>
 * {@link #put}: the index's writer thread; {@link #holds}: the reader that owns the entry. Neither allocates,
 * except an entry's buffer growing to the longest value once.
 */
final class IndexValues
{
    /** The digit for an entry that is not one consistent version: a value never written as it was read. */
    static final int WRONG = DigitTrace.NEVER_OFFERED;

    private static final int[] LENGTHS = {0, 16, 7, 200, 10, 150};
    private static final int STRIDE = 256;
    /** Value {@code r} at {@code r * STRIDE}; read-only once built, shared by all threads. */
    private static final UnsafeBuffer VALUES = valuePatterns();

    private IndexValues()
    {
    }

    /**
     * A key buffer for the tests; allocates it.
     *
     * @param text the key, ASCII.
     * @return a buffer holding exactly the key.
     */
    static UnsafeBuffer key(final String text)
    {
        final byte[] bytes = new byte[text.length()];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)text.charAt(i);
        }
        return new UnsafeBuffer(bytes);
    }

    /**
     * Puts value {@code revision} under {@code key} at modRevision {@code revision}. Writer thread only.
     *
     * @param index    the index.
     * @param key      the key, the whole buffer.
     * @param revision the revision, 1 to 5.
     * @param prevOut  the writer's scratch entry.
     */
    static void put(final OffHeapIndex index, final DirectBuffer key, final int revision, final IndexEntry prevOut)
    {
        index.put(key, 0, key.capacity(), VALUES, revision * STRIDE, LENGTHS[revision], revision, prevOut);
    }

    /**
     * Whether an entry is one consistent version of {@code key}, created at {@code createRevision} and put at
     * every revision from there up to at most {@code lastRevision}. The entry's owner thread.
     *
     * @param entry          the entry read; found.
     * @param key            the key expected, the whole buffer.
     * @param createRevision the key's create revision.
     * @param lastRevision   the key's last possible modRevision.
     * @return true if key, value and metadata all belong to one put of that key.
     */
    static boolean holds(
        final IndexEntry entry, final DirectBuffer key, final long createRevision, final long lastRevision)
    {
        final long modRevision = entry.modRevision();
        if (!entry.found() ||
            !sameBytes(entry.key(), entry.keyLength(), key, 0, key.capacity()) ||
            entry.createRevision() != createRevision ||
            modRevision < createRevision || modRevision > lastRevision ||
            entry.version() != modRevision - createRevision + 1)
        {
            return false;
        }
        final int revision = (int)modRevision;
        return sameBytes(entry.value(), entry.valueLength(), VALUES, revision * STRIDE, LENGTHS[revision]);
    }

    /**
     * Gets {@code key} and says which version it saw: {@link #holds} checked, with {@code createRevision} and
     * {@code lastRevision} as there. The entry's owner thread; allocates nothing but what {@link #holds} does.
     *
     * @param index          the index.
     * @param key            the key, the whole buffer.
     * @param entry          the reader's entry.
     * @param createRevision the key's create revision.
     * @param lastRevision   the key's last possible modRevision.
     * @return the version seen, 0 if the key was absent, {@link #WRONG} if the entry is no version written.
     */
    static int versionSeen(
        final OffHeapIndex index, final DirectBuffer key, final IndexEntry entry, final long createRevision,
        final long lastRevision)
    {
        if (!index.get(key, 0, key.capacity(), entry))
        {
            return 0;
        }
        return holds(entry, key, createRevision, lastRevision) ? (int)entry.version() : WRONG;
    }

    private static boolean sameBytes(
        final DirectBuffer actual, final int actualLength,
        final DirectBuffer expected, final int expectedOffset, final int expectedLength)
    {
        if (actualLength != expectedLength)
        {
            return false;
        }
        for (int i = 0; i < expectedLength; i++)
        {
            if (actual.getByte(i) != expected.getByte(expectedOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static UnsafeBuffer valuePatterns()
    {
        final UnsafeBuffer values = new UnsafeBuffer(new byte[LENGTHS.length * STRIDE]);
        for (int revision = 1; revision < LENGTHS.length; revision++)
        {
            for (int i = 0; i < LENGTHS[revision]; i++)
            {
                // An odd multiplier: two revisions below 256 apart never share a byte at the same position.
                values.putByte(revision * STRIDE + i, (byte)(revision * 37 + i));
            }
        }
        return values;
    }
}
