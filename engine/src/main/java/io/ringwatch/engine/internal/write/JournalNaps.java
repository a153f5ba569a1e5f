package io.ringwatch.engine.internal.write;

/**
 * The ASYNC journal stage's choice, each time it runs out of handed-over slots, between a timed
 * nap with its doorbell unarmed and a wait on its doorbell, and how long the nap is. A nap costs
 * the writer nothing when it hands over (no sleeper to unpark) and lets this stage wake less often
 * than once per writer batch; the doorbell wakes it as soon as a slot is handed over, so a lone
 * write is appended at once. The stage naps:
 * <ul>
 * <li>after a batch of at least {@value #NAP_AFTER_BATCH} revisions (writes arrive faster than
 *     that many per nap, 80,000 a second: above what one blocking producer or a few make, a batch
 *     of one each);</li>
 * <li>after any non-empty batch that a nap found: the stream that started the naps still runs.
 *     Without this rule a nap that found fewer than {@value #NAP_AFTER_BATCH} (the writer hands
 *     over in bursts) armed the doorbell, and the next hand-over cost the writer an unpark and this
 *     thread a wake-up: at 200,000 writes/s on the 2-core VM the journal thread woke 5,000 to
 *     10,000 times a second at about 8 µs of CPU each, as much as its appends.</li>
 * </ul>
 * A nap that finds nothing falls back to the doorbell. Never naps in SYNC mode (its batch ends in
 * a flush that producers wait for) or over a ring under {@value #NAP_MIN_RING_SLOTS} slots.
 * <p>
 * <b>The nap's length</b> starts at {@value #NAP_NANOS} ns and doubles, up to
 * {@value #MAX_NAP_NANOS} ns, while a nap finds fewer than {@value #LONGER_BELOW_BATCH} revisions
 * and the longer naps find proportionally more. A longer nap only saves wake-ups, and a wake-up
 * costs about as much as appending a few dozen revisions: against a batch of
 * {@value #LONGER_BELOW_BATCH} or more it saves little, while it holds every acknowledgement of the
 * batch back; so a longer nap that finds {@value #LONGER_BELOW_BATCH} or more is halved (not below
 * {@value #NAP_NANOS} ns), and an open stream's nap settles where it finds about that many. (Without
 * that bound, one producer keeping 512 writes outstanding on the 2-core VM was taken for an open
 * stream: each longer nap found more, the naps grew to 320-570 µs on average, and the producer
 * waited for them.) Writes that arrive
 * at their own pace (an open stream) come in at the same rate whatever this stage does, so a nap
 * twice as long finds a batch twice as large and the stage wakes half as often (each wake-up costs
 * it about as much CPU as appending a few dozen revisions). Writers that each wait for their
 * acknowledgement before the next write (a closed loop) send no more while the stage naps: a nap
 * twice as long finds the same batch, the rate falls by half, and after {@value #SLOWER_BATCHES}
 * such batches in a row the nap goes back to {@value #NAP_NANOS} ns, trying a longer one again
 * only after {@value #HOLD_BATCHES} batches, so such writers lose a few slower rounds in that
 * many. The rate is measured from the start of one batch to the start of the next (one clock read
 * per batch, which the stage takes anyway for its append timer); a rate under
 * {@value #SLOWER_PERCENT}% of the one measured at the first nap counts as slower.
 * <p>
 * The journal thread only; no allocation.
 */
final class JournalNaps
{
    /** A batch at least this large starts napping. */
    static final int NAP_AFTER_BATCH = 16;
    /**
     * The first nap, in nanoseconds. Delays an acknowledgement by at most the nap (plus the
     * scheduler's slack); the ring holds thousands of slots, which fill in a nap only at rates far
     * above the writer's.
     */
    static final long NAP_NANOS = 200_000;
    /** The longest nap, in nanoseconds (200 slots at 200,000 writes/s). */
    static final long MAX_NAP_NANOS = 1_000_000;
    /** A nap is lengthened only after it found fewer revisions than this, and a longer one that found as many is halved. */
    static final int LONGER_BELOW_BATCH = 128;
    /** Batches at the first nap after a longer nap found writers slower, before trying again. */
    static final int HOLD_BATCHES = 64;
    /** A rate under this share of the one before the first doubling counts as slower... */
    static final int SLOWER_PERCENT = 60;
    /** ... and this many slower batches in a row shorten the nap (one may be a stream's lull). */
    static final int SLOWER_BATCHES = 2;
    /** The smallest ring this stage naps over (a nap at 200,000 writes/s fills 40 slots). */
    static final int NAP_MIN_RING_SLOTS = 1024;

    private final boolean enabled;
    /** The next wait is a nap. */
    private boolean nap;
    /** The last wait was a nap. */
    private boolean napped;
    private long napNanos = NAP_NANOS;
    /** Revisions per second measured before the last doubling; 0 at the first nap. */
    private double rateBefore;
    private int hold;
    private int slower;
    /** When the last batch was taken, for the rate. */
    private long lastBatchNanos;

    /**
     * @param async     true for an ASYNC journal.
     * @param ringSlots the write ring's size.
     */
    JournalNaps(final boolean async, final int ringSlots)
    {
        this.enabled = async && ringSlots >= NAP_MIN_RING_SLOTS;
    }

    /**
     * Notes a batch of handed-over revisions, just taken.
     *
     * @param batch     how many slots the batch held, at least 1.
     * @param nowNanos  {@link System#nanoTime()} when the batch was taken.
     */
    void afterBatch(final long batch, final long nowNanos)
    {
        nap = enabled && (batch >= NAP_AFTER_BATCH || napped);
        if (!nap || !napped)
        {
            // A stream of naps starts at the first nap.
            shortest();
        }
        else if (nowNanos - lastBatchNanos > 0)
        {
            // One nap, and nothing else, came between the last batch and this one.
            adapt(batch, batch * 1e9 / (nowNanos - lastBatchNanos));
        }
        lastBatchNanos = nowNanos;
    }

    /**
     * Decides the wait now that no slot is handed over.
     *
     * @return true to nap for {@link #napNanos()}; false to wait on the doorbell.
     */
    boolean napNow()
    {
        napped = nap;
        nap = false;
        return napped;
    }

    /**
     * @return the nap to take when {@link #napNow()} says so, in nanoseconds.
     */
    long napNanos()
    {
        return napNanos;
    }

    /** After a batch of {@code batch} a nap found, at {@code rate} revisions a second: longer, shorter or the same. */
    private void adapt(final long batch, final double rate)
    {
        slower = napNanos > NAP_NANOS && rate * 100 < rateBefore * SLOWER_PERCENT ? slower + 1 : 0;
        if (napNanos > NAP_NANOS && batch >= LONGER_BELOW_BATCH)
        {
            // A shorter nap would still find enough to make its wake-up cheap against the batch.
            napNanos = Math.max(NAP_NANOS, napNanos / 2);
            slower = 0;
        }
        else if (slower >= SLOWER_BATCHES)
        {
            // The writes came slower for the longer nap: writers waiting for their acknowledgements.
            shortest();
            hold = HOLD_BATCHES;
        }
        else if (hold > 0)
        {
            hold--;
        }
        else if (napNanos < MAX_NAP_NANOS && slower == 0 && batch < LONGER_BELOW_BATCH)
        {
            if (napNanos == NAP_NANOS)
            {
                rateBefore = rate;
            }
            napNanos = Math.min(2 * napNanos, MAX_NAP_NANOS);
        }
    }

    private void shortest()
    {
        napNanos = NAP_NANOS;
        rateBefore = 0;
        slower = 0;
    }
}
