package io.ringwatch.server.watch;

import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.server.admission.WriteAdmission;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the watch pumps share: the count of live watches and, with write admission, each pump's
 * share of the backlog. Each pump measures only its own streams behind (their state is its
 * thread's) and publishes the lowest position of their reading watches in its own slot; the
 * admission then takes the least over every slot and the engine's revision for the watches in step.
 * No pump waits for another: whichever pump publishes runs the admission's evaluation if no other
 * pump is running it, and one that finds it running leaves it to that pump, which evaluates again
 * when a slot was published during its evaluation (a publication is never left unevaluated, and
 * the admission stays single-threaded). A slot is as old as its pump's last measurement; a pump
 * whose slot holds a position measures again before it idles, so a stale slot never holds writes
 * for longer than a pump's wake-up.
 *
 * <p>Thread-safe: {@link #publish} from each pump's thread for its own slot, {@link #watchesLive}
 * from any thread. Allocates nothing after construction. Publications come at most once per
 * pump per millisecond, or per idle wake-up, never per event.
 */
final class AdmissionShares
{
    /** Slots 128 bytes apart, so that pumps publishing do not share a cache line. */
    private static final int STRIDE = 16;

    private final EngineStats engine;
    private final WriteAdmission admission;
    private final int pumps;
    /** Each pump's lowest reading position, {@link Long#MAX_VALUE} for none, at {@code pump * STRIDE}. */
    private final AtomicLongArray lowest;
    /** Live watches of every stream: while there is one, the watches not behind are in step. */
    private final AtomicLong liveWatches = new AtomicLong();
    /** Counts publications, so that the pump evaluating sees whether one came during its evaluation. */
    private final AtomicLong published = new AtomicLong();
    private final AtomicBoolean evaluating = new AtomicBoolean();

    /**
     * @param engine    the figures of the engine whose revisions and window the backlog is measured against.
     * @param admission the write admission the pumps drive, or null without one.
     * @param pumps     how many pumps publish, at least 1.
     */
    AdmissionShares(final EngineStats engine, final WriteAdmission admission, final int pumps)
    {
        if (pumps < 1)
        {
            throw new IllegalArgumentException("watch pumps must be at least 1: " + pumps);
        }
        this.engine = engine;
        this.admission = admission;
        this.pumps = pumps;
        lowest = new AtomicLongArray(pumps * STRIDE);
        for (int i = 0; i < pumps; i++)
        {
            lowest.set(i * STRIDE, Long.MAX_VALUE);
        }
    }

    /**
     * @return the write admission the pumps drive, or null without one.
     */
    WriteAdmission admission()
    {
        return admission;
    }

    /**
     * @return the engine's figures.
     */
    EngineStats engine()
    {
        return engine;
    }

    /**
     * @return how many pumps share this.
     */
    int pumps()
    {
        return pumps;
    }

    /**
     * A stream's live watches changed (created, cancelled, ended, the stream closed). Any thread;
     * allocates nothing.
     *
     * @param delta the change.
     */
    void watchesLive(final int delta)
    {
        liveWatches.addAndGet(delta);
    }

    /**
     * Publishes {@code pump}'s share and evaluates the admission unless another pump is evaluating
     * it, which then evaluates again with this share. Pump {@code pump}'s thread; with admission
     * only; no lock, no allocation.
     *
     * @param pump        the publishing pump's index.
     * @param lowestOwn   the lowest position of its reading watches behind, {@link Long#MAX_VALUE} for none.
     * @param nowNanos    {@link System#nanoTime()} now.
     */
    void publish(final int pump, final long lowestOwn, final long nowNanos)
    {
        lowest.set(pump * STRIDE, lowestOwn);
        published.incrementAndGet();
        while (true)
        {
            // Read before the evaluation: a publication after this read is seen by the check below.
            final long seen = published.get();
            if (!evaluating.compareAndSet(false, true))
            {
                // The pump evaluating reads `published` after it stops, so it sees this one and goes again.
                return;
            }
            try
            {
                evaluate();
            }
            finally
            {
                evaluating.set(false);
            }
            if (published.get() == seen)
            {
                return;
            }
        }
    }

    private void evaluate()
    {
        final long revision = engine.currentRevision();
        long least = liveWatches.get() > 0 ? revision : Long.MAX_VALUE;
        for (int i = 0; i < pumps; i++)
        {
            least = Math.min(least, lowest.get(i * STRIDE));
        }
        admission.admitFrom(least, revision,
            WriteAdmission.windowRevisions(revision, engine.windowOldestRevision(), engine.windowSize(), engine.windowCapacity()));
    }
}
