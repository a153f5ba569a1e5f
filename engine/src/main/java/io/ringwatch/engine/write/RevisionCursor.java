package io.ringwatch.engine.write;

import io.ringwatch.ringbuffer.PaddedSequence;

import java.lang.invoke.VarHandle;

/**
 * The writer's progress as other threads see it. {@code applying} is raised to a revision
 * before the writer first touches the index for it; {@code applied} after the revision is in
 * the index and published in the watch window. So a reader that saw any index change can learn
 * an upper bound of its revision ({@link #applying()}) and wait for it to be fully applied.
 * Written only by the writer thread; read by any thread. Both counters are padded: readers poll
 * them constantly.
 */
public final class RevisionCursor
{
    private final PaddedSequence applying;
    private final PaddedSequence applied;

    /**
     * @param revision the revision to start from (0 for an empty store).
     */
    public RevisionCursor(final long revision)
    {
        applying = new PaddedSequence(revision);
        applied = new PaddedSequence(revision);
    }

    /**
     * @return the newest revision whose changes are in the index and the window.
     */
    public long applied()
    {
        return applied.get();
    }

    /**
     * @return the newest revision the writer has started to apply (>= {@link #applied()}).
     */
    public long applying()
    {
        return applying.get();
    }

    /**
     * Waits, spinning, until every revision the writer had begun when called is applied: what a
     * reader does after a fuzzy scan, so that everything the scan may have seen is complete. Any
     * thread; no allocation; the wait is as long as one revision's application.
     *
     * @return that revision, an upper bound of every change the caller saw before the call.
     */
    public long awaitApplying()
    {
        final long bound = applying.get();
        while (applied.get() < bound)
        {
            Thread.onSpinWait();
        }
        return bound;
    }

    void beginApplying(final long revision)
    {
        applying.setVolatile(revision);
        // The index stores that follow must not become visible before the new bound.
        VarHandle.releaseFence();
    }

    void markApplied(final long revision)
    {
        applied.setVolatile(revision);
    }
}
