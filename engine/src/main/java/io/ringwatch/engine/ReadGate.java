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
 * <p>A call that runs the user's index functions on its own thread ({@code addIndex}'s build,
 * {@code byIndex}'s pre-images) enters with {@link #enterRunningUserCode()} instead, so that a
 * {@code close()} from inside such a function can tell it must not wait for the calls inside: it
 * is one of them.
 *
 * <p>Any thread; allocation: none per call (a {@link LongAdder} spreads the count over cells under
 * contention, allocated by the adder the first times threads collide; a thread's first call that
 * runs user code allocates its one-slot depth counter).
 */
final class ReadGate
{
    private final LongAdder active = new LongAdder();
    /** Per thread: how many calls that run user code it is inside (a function may call byIndex). */
    private final ThreadLocal<int[]> userCodeDepth = ThreadLocal.withInitial(() -> new int[1]);
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
     * {@link #enter()} for a call that runs the user's index functions on the calling thread.
     *
     * @throws EngineClosedException if the engine is closed; the call is not counted.
     */
    void enterRunningUserCode()
    {
        enter();
        userCodeDepth.get()[0]++;
    }

    /**
     * Counts out a call that {@link #enterRunningUserCode()} counted in.
     */
    void leaveRunningUserCode()
    {
        userCodeDepth.get()[0]--;
        leave();
    }

    /**
     * @return true on a thread inside a call that runs user code: a close from there must not
     * wait for the calls inside to leave.
     */
    boolean runningUserCodeHere()
    {
        return userCodeDepth.get()[0] > 0;
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
