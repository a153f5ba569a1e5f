package io.ringwatch.engine.dispatch;

/**
 * What a watcher's consumer keeps (the delivery thread of a push watcher, the polling thread of a
 * pull watcher, one at a time): where delivery stands, exactly, the cursor it reads by while off
 * the routes, and whether the cancellation went out. An object of its own, allocated by the
 * consumer the first time it has something to deliver, so an idle watcher holds one null reference
 * instead of these fields (about 40 bytes); the cursor is allocated only while the watcher reads by
 * it.
 *
 * <p>Threads: the watcher's current consumer only; a hand-over between consumer threads is
 * published by the watcher's drain. Allocation: none after construction.
 */
final class ConsumerFields
{
    /** Delivering what the routes queue. */
    static final byte SYNCED = 0;
    /** Off the routes, reading the history by {@link #cursor}. */
    static final byte CATCHING_UP = 1;
    /** At the end of the history, waiting for the shard to route the watcher again. */
    static final byte REJOINING = 2;

    /** SYNCED, CATCHING_UP or REJOINING. */
    byte mode = SYNCED;
    /** The cancellation has been handed to the listener. */
    boolean cancellationDelivered;
    /** The last rejoin request sent. */
    int rejoinTicket;
    /** Every event before this revision has been delivered... */
    long resumeRevision;
    /** ...and this many of its own matching events. */
    int deliveredAtResume;
    /**
     * A revision every event up to which has been delivered (the last progress reported, or one
     * before the revision of the last event delivered), so progress never goes back.
     */
    long knownComplete;
    /** The cursor while catching up, else null. */
    CatchUpCursor cursor;

    /**
     * @param startRevision the watcher's first revision: nothing before it is owed.
     */
    ConsumerFields(final long startRevision)
    {
        this.resumeRevision = startRevision;
    }
}
