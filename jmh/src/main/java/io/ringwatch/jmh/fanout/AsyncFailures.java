package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.WriteCallback;

/**
 * The one callback of every asynchronous put: ignores successes and keeps the first failure, so a
 * trial whose writes failed cannot pass as fast. The engine calls it on its writer thread;
 * {@link #check()} may be called from any thread. Allocates nothing.
 */
final class AsyncFailures implements WriteCallback
{
    private volatile RingWatchException first;

    /**
     * Ignores a successful write. Writer thread; allocates nothing.
     *
     * @param revision  the store revision after the write.
     * @param succeeded whether a conditional write applied.
     * @param deleted   keys removed by a delete.
     */
    @Override
    public void onWritten(final long revision, final boolean succeeded, final long deleted)
    {
    }

    /**
     * Keeps the first failure. Writer thread.
     *
     * @param error why the write was not applied.
     */
    @Override
    public void onFailed(final RingWatchException error)
    {
        if (first == null)
        {
            first = error;
        }
    }

    /**
     * Any thread.
     *
     * @throws IllegalStateException if any asynchronous put failed.
     */
    void check()
    {
        final RingWatchException failure = first;
        if (failure != null)
        {
            throw new IllegalStateException("an asynchronous put failed", failure);
        }
    }
}
