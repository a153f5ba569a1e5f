package io.ringwatch.jmh.persistence;

/**
 * The raw baselines' {@code syncEvery} parameter, checked once per iteration. Any thread; no allocation.
 */
final class SyncCount
{
    private SyncCount()
    {
    }

    /**
     * @param syncEvery appends per sync.
     * @return {@code syncEvery}, to count down from.
     * @throws IllegalArgumentException if it is not positive.
     */
    static int check(final int syncEvery)
    {
        if (syncEvery < 1)
        {
            throw new IllegalArgumentException("syncEvery must be at least 1: " + syncEvery);
        }
        return syncEvery;
    }
}
