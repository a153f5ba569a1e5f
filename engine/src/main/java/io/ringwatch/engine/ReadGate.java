package io.ringwatch.engine;

import io.ringwatch.engine.errors.EngineClosedException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's open/closed state and the count of calls inside it: a read (or any call that
 * touches the off-heap index) {@link #enter()}s before it starts and {@link #leave()}s when it is
 * done, so that close frees the index only after the last of them has left. The count goes up
 * before the closed flag is checked: a call either sees the engine closed and stays out, or is
 * counted before close starts waiting.
 *
 * <p>Any thread; allocation: none (a {@link LongAdder} spreads the count over cells under
 * contention, allocated by the adder the first times threads collide).
 */
final class ReadGate
{
    private final LongAdder active = new LongAdder();
    private volatile boolean closed;

    /**
     * Counts a call in.
     *
     * @throws EngineClosedException if the engine is closed; the call is not counted.
     */
    void enter()
    {
        active.increment();
        if (closed)
        {
            active.decrement();
            throw new EngineClosedException("the engine is closed");
        }
    }

    /**
     * Counts a call out; once for every {@link #enter()} that returned.
     */
    void leave()
    {
        active.decrement();
    }

    /**
     * For calls that do not touch the index (writes, watches): refuses them once closed.
     *
     * @throws EngineClosedException if the engine is closed.
     */
    void requireOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("the engine is closed");
        }
    }

    /**
     * Marks the engine closed. Under this gate's monitor, which {@link Compaction} holds too, so a
     * compaction finishes before close goes on or sees the engine closed.
     *
     * @return true for the first call, false when it was closed already.
     */
    synchronized boolean close()
    {
        if (closed)
        {
            return false;
        }
        closed = true;
        return true;
    }

    /**
     * After {@link #close()}: spins until every call counted in has left.
     */
    void awaitNoneInside()
    {
        while (active.sum() != 0)
        {
            Thread.onSpinWait();
        }
    }
}
