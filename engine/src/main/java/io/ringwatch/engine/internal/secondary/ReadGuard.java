package io.ringwatch.engine.internal.secondary;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the readers of a structure that is freed once retired: readers enter and leave
 * lock-free, and the last one out after {@link #retire()} (or {@code retire} itself, when no
 * reader is inside) runs the release action, exactly once. Any thread; allocates nothing.
 */
final class ReadGuard
{
    private static final long RETIRED = 1L << 62;
    private static final long RELEASED = RETIRED | (1L << 61);

    private final AtomicLong state = new AtomicLong();
    private final Runnable release;

    ReadGuard(final Runnable release)
    {
        this.release = release;
    }

    /** @return true when entered; false once retired (the caller must not touch the structure). */
    boolean enter()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & RETIRED) != 0)
            {
                return false;
            }
            if (state.compareAndSet(current, current + 1))
            {
                return true;
            }
        }
    }

    void leave()
    {
        if (state.decrementAndGet() == RETIRED)
        {
            releaseOnce();
        }
    }

    /** Refuses new readers; releases now if none is inside, else when the last one leaves. */
    void retire()
    {
        while (true)
        {
            final long current = state.get();
            if ((current & RETIRED) != 0)
            {
                return;
            }
            if (state.compareAndSet(current, current | RETIRED))
            {
                if (current == 0)
                {
                    releaseOnce();
                }
                return;
            }
        }
    }

    private void releaseOnce()
    {
        if (state.compareAndSet(RETIRED, RELEASED))
        {
            release.run();
        }
    }
}
