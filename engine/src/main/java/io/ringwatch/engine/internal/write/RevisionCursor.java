package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.ringbuffer.PaddedSequence;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer's progress as other threads see it. {@code applying} is raised to a revision
 * before the writer first touches the index for it; {@code applied} once the revision is in the
 * index and published in the watch window: by the writer in memory and in ASYNC mode, by the
 * journal stage once the revision is durable in SYNC mode (the visibility gate). So a reader that
 * saw any index change can learn an upper bound of its revision ({@link #applying()}) and wait
 * for it to be visible. {@code durable} is the newest revision the journal holds as its mode
 * promises (appended in ASYNC, forced to disk in SYNC). Written by the writer and the journal
 * stage (and, once, by a roll-back after a journal failure); read by any thread. Every counter is
 * padded: readers poll them constantly.
 */
public final class RevisionCursor implements PublishedRevisions
{
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long PARK_NANOS = 20_000;

    private final PaddedSequence applying;
    private final PaddedSequence applied;
    private final PaddedSequence durable;
    /** Even when no roll-back runs, odd during one: readers that overlap a roll-back retry. */
    private final PaddedSequence rollbacks = new PaddedSequence(0);
    /** The thread that advances {@code applied} behind the writer (the SYNC journal stage), if any. */
    private volatile Thread gate;

    /**
     * @param revision the revision to start from (0 for an empty store).
     */
    public RevisionCursor(final long revision)
    {
        applying = new PaddedSequence(revision);
        applied = new PaddedSequence(revision);
        durable = new PaddedSequence(revision);
    }

    /**
     * @return the newest revision whose changes are in the index and visible in the window.
     */
    public long applied()
    {
        return applied.get();
    }

    /**
     * @return the newest revision the writer has started to apply (>= {@link #applied()} except
     * after a roll-back).
     */
    @Override
    public long applying()
    {
        return applying.get();
    }

    /**
     * @return the newest revision the journal holds as its mode promises; what a snapshot may
     * claim. Equal to the recovered revision in an engine without a journal.
     */
    @Override
    public long durable()
    {
        return durable.get();
    }

    /**
     * @return a stamp that changes when the writer's changes after the durable revision are rolled
     * back (after a journal failure): a reader notes it before it reads the index and retries when
     * {@link #isStable(long)} fails afterwards. Waits while a roll-back runs. Any thread.
     */
    @Override
    public long readStamp()
    {
        long stamp;
        while (((stamp = rollbacks.get()) & 1) != 0)
        {
            Thread.onSpinWait();
        }
        return stamp;
    }

    /**
     * @param stamp what {@link #readStamp()} returned before the read.
     * @return true when no roll-back ran since, so what the read saw stands.
     */
    @Override
    public boolean isStable(final long stamp)
    {
        return rollbacks.get() == stamp;
    }

    /**
     * Waits until every revision the writer had begun when called is visible: what a reader does
     * after a fuzzy scan, so that everything the scan may have seen is complete (and, in SYNC
     * mode, durable: up to one group commit). Spins, then yields, then parks briefly. Any
     * thread; no allocation. A roll-back during the wait ends it early; the caller sees that
     * through {@link #isStable(long)}.
     *
     * @return that revision, an upper bound of every change the caller saw before the call; after
     * a roll-back, the revision rolled back to.
     * @throws RingWatchException on the thread that would have to open the gate itself (a SYNC
     *                            engine's journal stage, where write completions run).
     */
    public long awaitApplying()
    {
        final long stamp = rollbacks.get();
        final long bound = applying.get();
        if (applied.get() < bound && Thread.currentThread() == gate)
        {
            throw new RingWatchException("a read inside a write's completion would wait for the journal thread " +
                "it runs on: chain it with the *Async variants of CompletableFuture");
        }
        for (int step = 0; applied.get() < bound; step++)
        {
            if (rollbacks.get() != stamp)
            {
                return applied.get();
            }
            if (step < SPINS)
            {
                Thread.onSpinWait();
            }
            else if (step < SPINS + YIELDS)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
        return bound;
    }

    void beginApplying(final long revision)
    {
        applying.setVolatile(revision);
        // The index stores that follow must not become visible before the new bound.
        VarHandle.releaseFence();
    }

    /**
     * Names the thread that advances {@code applied} behind the writer, so a read on it that would
     * wait for itself is refused instead of hanging.
     *
     * @param thread the SYNC journal stage's thread.
     */
    void gatedBy(final Thread thread)
    {
        gate = thread;
    }

    void markApplied(final long revision)
    {
        // A release store: readers of applied poll it (no one parks on it and no doorbell pairs with
        // it), so it needs only to publish the index and window stores before it, not the full fence
        // a volatile store would cost the writer per revision.
        applied.set(revision);
    }

    void markDurable(final long revision)
    {
        // A release store, as for applied: durable is polled (the snapshotter), never parked on
        // with a doorbell, and an ASYNC journal stage stores it once per revision appended.
        durable.set(revision);
    }

    /** Starts rolling the index back: readers from now on wait, and readers in flight retry. */
    void beginRollback()
    {
        rollbacks.setVolatile(rollbacks.getPlain() + 1);
    }

    /**
     * Ends a roll-back: the index holds exactly {@code revision} again.
     *
     * @param revision the durable revision rolled back to.
     */
    void endRollback(final long revision)
    {
        applying.setVolatile(revision);
        applied.setVolatile(revision);
        rollbacks.setVolatile(rollbacks.getPlain() + 1);
    }
}
