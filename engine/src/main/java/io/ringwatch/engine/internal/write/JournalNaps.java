package io.ringwatch.engine.internal.write;

/**
 * The ASYNC journal stage's choice, each time it runs out of handed-over slots, between a timed
 * nap with its doorbell unarmed and a wait on its doorbell. A nap costs the writer nothing when it
 * hands over (no sleeper to unpark) and lets this stage wake less often than once per writer
 * batch; the doorbell wakes it as soon as a slot is handed over, so a lone write is appended at
 * once. The stage naps:
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
 * The journal thread only; no allocation.
 */
final class JournalNaps
{
    /** A batch at least this large starts napping. */
    static final int NAP_AFTER_BATCH = 16;
    /**
     * The nap, in nanoseconds. Delays an acknowledgement by at most this (plus the scheduler's
     * slack); the ring holds thousands of slots, which fill in a nap only at rates far above the
     * writer's.
     */
    static final long NAP_NANOS = 200_000;
    /** The smallest ring this stage naps over (a nap at 200,000 writes/s fills 40 slots). */
    static final int NAP_MIN_RING_SLOTS = 1024;

    private final boolean enabled;
    /** The next wait is a nap. */
    private boolean nap;
    /** The last wait was a nap. */
    private boolean napped;

    /**
     * @param async     true for an ASYNC journal.
     * @param ringSlots the write ring's size.
     */
    JournalNaps(final boolean async, final int ringSlots)
    {
        this.enabled = async && ringSlots >= NAP_MIN_RING_SLOTS;
    }

    /**
     * Notes a batch of handed-over revisions, just appended.
     *
     * @param batch how many slots the batch held, at least 1.
     */
    void afterBatch(final long batch)
    {
        nap = enabled && (batch >= NAP_AFTER_BATCH || napped);
    }

    /**
     * Decides the wait now that no slot is handed over.
     *
     * @return true to nap for {@link #NAP_NANOS}; false to wait on the doorbell.
     */
    boolean napNow()
    {
        napped = nap;
        nap = false;
        return napped;
    }
}
