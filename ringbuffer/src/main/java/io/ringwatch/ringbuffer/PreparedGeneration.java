package io.ringwatch.ringbuffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The generation a growth will switch to, built ahead by a thread other than the writer (the
 * copier), which also copies the published events of the generation the writer fills into it ahead
 * of the switch, so that the writer copies only those appended since.
 * <p>
 * <b>Hand-over.</b> The target has one owner at a time. The copier claims it for a chunk
 * ({@link #claim()}: IDLE to BUSY), copies, records how far it got and releases it
 * ({@link #release(long)}: BUSY to IDLE, a release store). The writer takes it for good
 * ({@link #take()}: IDLE to TAKEN); its successful compare-and-set reads the state the last release
 * wrote, so it sees every byte and field the copier wrote and {@link #copiedUpTo()} as released. A
 * writer that finds the copier BUSY does not wait: it builds a fresh generation as without one,
 * and the copier's chunk is lost with this object. Nothing ever leaves TAKEN.
 * <p>
 * Allocation: the target's direct memory, once, at construction (the copier's thread).
 */
final class PreparedGeneration
{
    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int TAKEN = 2;

    /** The generation the copied events come from: the one the writer fills while it is asked for. */
    final Generation source;
    /** The generation being built, twice the source's capacity. */
    final Generation target;
    private final AtomicInteger state = new AtomicInteger(IDLE);
    /** The next sequence the copier copies; written only while BUSY, read after a claim or take. */
    private long copiedUpTo;

    PreparedGeneration(final Generation source, final Generation target)
    {
        this.source = source;
        this.target = target;
    }

    /**
     * Copier: owns the target until {@link #release(long)}.
     *
     * @return false if the writer took it (then the copier stops for good).
     */
    boolean claim()
    {
        return state.compareAndSet(IDLE, BUSY);
    }

    /**
     * Copier, after a {@link #claim()}: the target holds every event it is told to hold below
     * {@code next}; hands it back, publishing the copies.
     */
    void release(final long next)
    {
        copiedUpTo = next;
        state.set(IDLE);
    }

    /**
     * Writer: takes the target for good, unless the copier holds it now.
     *
     * @return whether the writer owns the target from now on.
     */
    boolean take()
    {
        return state.compareAndSet(IDLE, TAKEN);
    }

    /**
     * The first sequence the copier has not copied; the owner only (after a claim or a take).
     */
    long copiedUpTo()
    {
        return copiedUpTo;
    }
}
