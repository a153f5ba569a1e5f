package io.ringwatch.engine.internal.thread;

import java.util.concurrent.CountDownLatch;

/**
 * Waiting for a stage's thread to end, as the write path's stages stop (and recovery's reader
 * thread, before an open returns), or for a latch (a second {@code close()} waiting for the first):
 * an interrupt does not cut the wait short (a half-stopped stage would strand writes); it is kept
 * and restored after.
 */
public final class Joins
{
    private Joins()
    {
    }

    /**
     * Waits until {@code thread} has ended, restoring the caller's interrupt status afterwards.
     *
     * @param thread the thread to wait for.
     */
    public static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until {@code latch} is open, restoring the caller's interrupt status afterwards.
     *
     * @param latch the latch to wait for.
     */
    public static void awaitUninterruptibly(final CountDownLatch latch)
    {
        boolean interrupted = false;
        while (latch.getCount() != 0)
        {
            try
            {
                latch.await();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
