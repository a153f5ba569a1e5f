package io.ringwatch.engine.internal.dispatch;

/**
 * What a {@link Dispatcher} shard keeps about one watcher once the watcher has had something from
 * it: its queue of routed events, the progress marker in that queue, its place in the budget's and
 * the progress lists, the revision the routes serve it from after a rejoin, and the last rejoin
 * routed, how far the routes had served it when it last fell behind, and the revision of the last
 * event offered to it. An object of its own,
 * allocated by the dispatcher with the watcher's first event, marker, rejoin, periodic-progress
 * registration or fall behind, so that an idle watcher holds one null reference instead of this
 * 96-byte object, and no other thread's code can reach the dispatcher's plain
 * fields by accident, as Aeron keeps a publication's conductor and sender fields apart.
 *
 * <p>Threads: written by the owning dispatcher thread only. The consumer reads {@link #pending},
 * {@link #joinedTicket} and {@link #drainedThrough}, all volatile; every other field is the
 * dispatcher's alone.
 * Allocation: none after construction (the queue is allocated by {@link PendingBudget}).
 */
final class ShardFields
{
    /** The routed events, null while none was routed since the watcher last joined the routes. */
    volatile PendingQueue pending;
    /**
     * The queue the watcher had when it last left the routes, kept for when it rejoins them (its
     * consumer has let go of it by then: it asks to rejoin only after reading by cursor), so that
     * a watcher that keeps overflowing does not allocate a queue each time; null when none.
     */
    PendingQueue spare;
    /** The last rejoin request the dispatcher has routed the watcher for; 0 before any. */
    volatile int joinedTicket;
    /**
     * When the watcher last fell behind while routed with an empty queue: the revision up to which
     * the routes had offered it every event it matches, all of which its consumer had taken. Its
     * catch-up need not read the history before the next revision. 0 when never.
     */
    volatile long drainedThrough;
    /** The dispatcher batch that last touched the watcher. */
    long touchedInBatch = -1;
    /** The open revision the watcher was last kept for, to be marked again once it completes; -1 when none. */
    long openRevisionKept = -1;
    /** Position in the shard's list of progress watchers, -1 when not in it. */
    int progressIndex = -1;
    /** The first revision the routes offer the watcher; set each time it joins them. */
    long routedFrom;
    /** The queue index of the last progress marker offered, -1 when none is pending. */
    long markerAt = -1;
    /** The revision that marker carries. */
    long markerRevision;
    /**
     * The revision of the last event offered to the queue: while the shard is inside that revision
     * the watcher's progress waits for its end, as a marker of the revision before would follow an
     * event it does not cover.
     */
    long offeredRevision;
    /**
     * The open revision whose end the watcher's progress waits for (an entry in the shard's
     * deferred list), so that ticks inside a long revision add one entry, not one each; 0 before any.
     */
    long progressWaitsFor;
    /** Position in the shard's list of queue holders, which its budget recounts; -1 when not in it. */
    int holderIndex = -1;

    /**
     * @param routedFrom the first revision the routes offer the watcher so far: its start revision.
     */
    ShardFields(final long routedFrom)
    {
        this.routedFrom = routedFrom;
    }
}
