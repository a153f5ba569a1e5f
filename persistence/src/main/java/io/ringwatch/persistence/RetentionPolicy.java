package io.ringwatch.persistence;

import java.time.Duration;

/**
 * Which old queue cycle files the log may delete: any combination of a revision count, an age and a
 * byte budget. A file is deleted when ANY configured limit says it is surplus, but only when every
 * revision in it lies below the log's safety bound (compaction point, the newest snapshot and the
 * engine's {@code retainFrom}); the cycle being written is never deleted. Immutable; any thread.
 */
public final class RetentionPolicy
{
    private static final RetentionPolicy KEEP_ALL = new RetentionPolicy(0, null, 0);

    private final long keepRevisions;
    private final Duration maxAge;
    private final long maxBytes;

    private RetentionPolicy(final long keepRevisions, final Duration maxAge, final long maxBytes)
    {
        this.keepRevisions = keepRevisions;
        this.maxAge = maxAge;
        this.maxBytes = maxBytes;
    }

    /**
     * A policy that deletes nothing. Any thread; no allocation.
     *
     * @return the shared keep-everything policy.
     */
    public static RetentionPolicy keepAll()
    {
        return KEEP_ALL;
    }

    /**
     * This policy with a limit on how many of the newest revisions to keep. Any thread; allocates the
     * new policy.
     *
     * @param revisions how many newest revisions must stay; a file whose newest revision is older is
     *                  surplus.
     * @return the new policy.
     * @throws IllegalArgumentException if {@code revisions} is not positive.
     */
    public RetentionPolicy keepRevisions(final long revisions)
    {
        if (revisions <= 0)
        {
            throw new IllegalArgumentException("keepRevisions must be positive: " + revisions);
        }
        return new RetentionPolicy(revisions, maxAge, maxBytes);
    }

    /**
     * This policy with a limit on age. Any thread; allocates the new policy.
     *
     * @param age a file whose cycle ended longer ago than this is surplus.
     * @return the new policy.
     * @throws IllegalArgumentException if {@code age} is null, zero or negative.
     */
    public RetentionPolicy maxAge(final Duration age)
    {
        if (age == null || age.isZero() || age.isNegative())
        {
            throw new IllegalArgumentException("maxAge must be positive: " + age);
        }
        return new RetentionPolicy(keepRevisions, age, maxBytes);
    }

    /**
     * This policy with a byte budget. Any thread; allocates the new policy.
     *
     * @param bytes while the queue files' total length exceeds this, the oldest file is surplus.
     * @return the new policy.
     * @throws IllegalArgumentException if {@code bytes} is not positive.
     */
    public RetentionPolicy maxBytes(final long bytes)
    {
        if (bytes <= 0)
        {
            throw new IllegalArgumentException("maxBytes must be positive: " + bytes);
        }
        return new RetentionPolicy(keepRevisions, maxAge, bytes);
    }

    /**
     * The revision-count limit. Any thread; no allocation.
     *
     * @return how many newest revisions to keep, or 0 for no limit.
     */
    public long keepRevisions()
    {
        return keepRevisions;
    }

    /**
     * The age limit. Any thread; no allocation.
     *
     * @return the age limit, or null for none.
     */
    public Duration maxAge()
    {
        return maxAge;
    }

    /**
     * The byte budget. Any thread; no allocation.
     *
     * @return the budget in bytes, or 0 for none.
     */
    public long maxBytes()
    {
        return maxBytes;
    }

    /**
     * Whether any limit is configured. Any thread; no allocation.
     *
     * @return false for {@link #keepAll()}.
     */
    public boolean deletesAnything()
    {
        return keepRevisions > 0 || maxAge != null || maxBytes > 0;
    }

    @Override
    public String toString()
    {
        return "RetentionPolicy{keepRevisions=" + keepRevisions + ", maxAge=" + maxAge + ", maxBytes=" + maxBytes + '}';
    }
}
