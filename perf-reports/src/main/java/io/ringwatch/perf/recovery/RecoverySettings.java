package io.ringwatch.perf.recovery;

/**
 * What the recovery benchmark writes: {@code revisions} puts (one revision each) cycling through
 * {@code keys} keys of {@value RecoveryWorkload#KEY_BYTES} bytes with values of {@code valueBytes}.
 * Immutable; any thread.
 *
 * @param revisions  puts to write; at least 1.
 * @param keys       distinct keys; at least 1.
 * @param valueBytes value length; at least 8 (the put number is stored in it).
 */
record RecoverySettings(long revisions, int keys, int valueBytes)
{
    // Per revision: the log's header (28) and change (61) fixed parts, Chronicle's excerpt header and
    // alignment (about 8); per snapshot entry: key, value and about 40 bytes of fields.
    private static final int LOG_FIXED_BYTES = 28 + 61 + 8;
    private static final int SNAPSHOT_FIXED_BYTES = 40;

    RecoverySettings
    {
        if (revisions < 1)
        {
            throw new IllegalArgumentException("--revisions must be at least 1: " + revisions);
        }
        if (keys < 1)
        {
            throw new IllegalArgumentException("--keys must be at least 1: " + keys);
        }
        if (valueBytes < Long.BYTES)
        {
            throw new IllegalArgumentException("--value-size must be at least " + Long.BYTES + ": " + valueBytes);
        }
    }

    /**
     * @return how many distinct keys the engine holds at the end.
     */
    long liveKeys()
    {
        return Math.min(keys, revisions);
    }

    /**
     * An upper estimate of the disk the run needs at its peak: the log (updates carry the previous
     * value) and one snapshot.
     *
     * @return bytes.
     */
    long estimatedDiskBytes()
    {
        final long perRevision = LOG_FIXED_BYTES + RecoveryWorkload.KEY_BYTES + 2L * valueBytes;
        final long perKey = SNAPSHOT_FIXED_BYTES + RecoveryWorkload.KEY_BYTES + (long)valueBytes;
        return revisions * perRevision + liveKeys() * perKey;
    }
}
