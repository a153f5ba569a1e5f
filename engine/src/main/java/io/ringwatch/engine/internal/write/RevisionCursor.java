package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.ringbuffer.PaddedSequence;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer's progress as other threads see it. The writer applies commands in flush groups (a
 * batch, or 64 commands of a long one: {@code RevisionApplier}). Before a group's first change to
 * the index it announces the group's first revision ({@code announced}, a volatile store: the
 * writer's one full fence per group); at the group's flush it stores the group's last revision
 * ({@code ended}). {@code applied} is raised once a revision is in the index and published in the
 * watch window: by the writer at the flush in memory and in ASYNC mode, by the journal stage once
 * the revision is durable in SYNC mode (the visibility gate). So a reader that saw any index change,
 * or that published a read pin, learns an upper bound of every revision it may have seen or the
 * writer may have applied without seeing its pin ({@link #awaitBound()}: the end of the group
 * announced when called), and can wait for it to be visible ({@link #awaitApplying()}).
 * {@code durable} is the newest revision the journal holds as its mode promises (appended in ASYNC,
 * forced to disk in SYNC). Written by the writer and the journal stage (and, once, by a roll-back
 * after a journal failure); read by any thread. Every counter is padded: readers poll them
 * constantly.
 *
 * <p>The pin handshake is a Dekker pair per group: the writer stores {@code announced}, then reads
 * the undo log's pin table as it ends each revision of the group; a reader publishes its pin, then
 * reads {@code announced}. Either the writer sees the pin for every revision of the group, or the
 * reader sees the group announced and its bound covers the whole group. One command per batch (low
 * load) makes one group per revision, a fence per revision as before; a saturated writer pays one
 * per 64 commands.
 */
public final class RevisionCursor implements PublishedRevisions
{
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long PARK_NANOS = 20_000;

    /** The first revision of the flush group the writer is applying, or of the last one it applied. */
    private final PaddedSequence announced;
    /** The last revision of the last flush group the writer ended: at least {@code announced} between groups. */
    private final PaddedSequence ended;
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
        announced = new PaddedSequence(revision);
        ended = new PaddedSequence(revision);
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
     * Waits until the writer has ended the flush group it had announced when called (at most one
     * group of 64 commands: microseconds; the writer never waits within a group) and returns the
     * last revision it had ended by then. That is an upper bound of every revision whose index
     * change the caller saw before the call, and of every revision the writer applied without
     * seeing a read pin the caller published before the call: what a reader learns after a fuzzy
     * scan, or after publishing its pin. Spins, then yields, then parks briefly. Any thread but the
     * writer's; no allocation. A roll-back during the wait ends it early; the caller sees that
     * through {@link #isStable(long)}.
     *
     * @return the bound; after a roll-back, a revision that may not hold.
     */
    @Override
    public long awaitBound()
    {
        return awaitBound(rollbacks.get());
    }

    /**
     * Waits until every revision of the flush group the writer had announced when called is
     * visible: in SYNC mode, durable (up to one group commit). Spins, then yields, then parks
     * briefly. Any thread but the writer's; no allocation. A roll-back during the wait ends it
     * early; the caller sees that through {@link #isStable(long)}.
     *
     * @return the {@link #awaitBound()} bound, an upper bound of every change the caller saw before
     * the call, now visible; after a roll-back, the revision rolled back to.
     * @throws RingWatchException on the thread that would have to open the gate itself (a SYNC
     *                            engine's journal stage, where write completions run).
     */
    @Override
    public long awaitApplying()
    {
        final long stamp = rollbacks.get();
        final long bound = awaitBound(stamp);
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
            pause(step);
        }
        return bound;
    }

    private long awaitBound(final long stamp)
    {
        // A group is announced at its first change and ended at its flush, with at least one
        // revision: the first end at or after the announced revision is the announced group's.
        final long first = announced.get();
        long end;
        for (int step = 0; (end = ended.get()) < first; step++)
        {
            if (rollbacks.get() != stamp)
            {
                return end;
            }
            pause(step);
        }
        return end;
    }

    private static void pause(final int step)
    {
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

    /**
     * Announces a flush group, before the group's first change to the index. A volatile store,
     * the writer's side of the pin handshake: the undo log's reads of the pin table that follow,
     * for every revision of the group, see every pin a reader published before it read an older
     * announcement. Writer thread.
     *
     * @param firstRevision the group's first revision.
     */
    void announce(final long firstRevision)
    {
        announced.setVolatile(firstRevision);
        // The index stores that follow, of every revision of the group, must not become visible before it.
        VarHandle.releaseFence();
    }

    /**
     * Ends the flush group announced last, at its flush and before its commands are completed (a
     * completion may read on the writer's thread). A release store: readers only poll it. Writer
     * thread.
     *
     * @param lastRevision the group's last revision.
     */
    void markEnded(final long lastRevision)
    {
        ended.set(lastRevision);
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
     * Ends a roll-back: the index holds exactly {@code revision} again. The writer changes nothing
     * after a journal failure, and every group it changed was ended before the roll-back began, so
     * the group bounds go back with the index; a reader that read them before retries.
     *
     * @param revision the durable revision rolled back to.
     */
    void endRollback(final long revision)
    {
        announced.setVolatile(revision);
        ended.setVolatile(revision);
        applied.setVolatile(revision);
        rollbacks.setVolatile(rollbacks.getPlain() + 1);
    }
}
