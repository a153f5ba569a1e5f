package io.ringwatch.engine.internal.read;

import org.agrona.DirectBuffer;

import java.util.Arrays;
import java.util.HashSet;

/**
 * The keys a read at a past revision has met a change of, so that it keeps only each key's first
 * change after that revision (the one that carries the key's state then) and not every change:
 * what the read holds grows with the keys changed in its range, not with the revisions written
 * since (a paginated LIST whose pages come long after its first one, under a writer that changes
 * the same keys over and over, would otherwise hold a pre-image per change for every page).
 * <p>
 * One reader thread. Allocates a copy of each key the first time it is met (and the set's
 * growth); a key met again allocates nothing.
 */
final class FirstChanges
{
    private final HashSet<Key> met = new HashSet<>();
    private final Key probe = new Key(new byte[64], 0);

    /**
     * @param key    holds the key from index 0.
     * @param length its length.
     * @return true the first time this key is met, false after.
     */
    boolean isFirst(final DirectBuffer key, final int length)
    {
        probe.wrap(key, length);
        if (met.contains(probe))
        {
            return false;
        }
        met.add(new Key(Arrays.copyOf(probe.bytes, length), length));
        return true;
    }

    /** Key bytes compared by content; the probe reuses its array, a kept key owns an exact copy. */
    private static final class Key
    {
        private byte[] bytes;
        private int length;
        private int hash;

        private Key(final byte[] bytes, final int length)
        {
            this.bytes = bytes;
            this.length = length;
            this.hash = hashOf(bytes, length);
        }

        private void wrap(final DirectBuffer key, final int keyLength)
        {
            if (bytes.length < keyLength)
            {
                bytes = new byte[Math.max(keyLength, 2 * bytes.length)];
            }
            key.getBytes(0, bytes, 0, keyLength);
            length = keyLength;
            hash = hashOf(bytes, keyLength);
        }

        private static int hashOf(final byte[] bytes, final int length)
        {
            int h = 1;
            for (int i = 0; i < length; i++)
            {
                h = 31 * h + bytes[i];
            }
            return h;
        }

        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Key && Arrays.equals(bytes, 0, length, ((Key)other).bytes, 0, ((Key)other).length);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }
}
