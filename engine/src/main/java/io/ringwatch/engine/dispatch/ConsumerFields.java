package io.ringwatch.engine.dispatch;

/**
 * The part of a watcher that its consumer alone reads and writes (the delivery thread of a push
 * watcher, the polling thread of a pull watcher, one at a time): where delivery stands, exactly,
 * and the cursor it reads by while off the routes. A layer of the watcher, like
 * {@link ShardFields}, so it costs no object of its own; the cursor is allocated only while the
 * watcher reads by it.
 *
 * <p>Threads: the watcher's current consumer only; a hand-over between consumer threads is
 * published by the watcher's drain. Allocation: none.
 */
abstract class ConsumerFields extends ShardFields
{
    /** Delivering what the routes queue. */
    static final byte SYNCED = 0;
    /** Off the routes, reading the history by {@link #cursor}. */
    static final byte CATCHING_UP = 1;
    /** At the end of the history, waiting for the shard to route the watcher again. */
    static final byte REJOINING = 2;

    /** SYNCED, CATCHING_UP or REJOINING; a byte so that it fills a gap in the watcher's layout. */
    byte mode = SYNCED;
    /** Every event before this revision has been delivered... */
    long resumeRevision;
    /** ...and this many of its own matching events. */
    int deliveredAtResume;
    /** The last rejoin request sent. */
    int rejoinTicket;
    /**
     * A revision every event up to which has been delivered (the last progress reported, or one
     * before the revision of the last event delivered), so progress never goes back.
     */
    long knownComplete;
    /** The cursor while catching up, else null. */
    CatchUpCursor cursor;
    /** The cancellation has been handed to the listener. */
    boolean cancellationDelivered;
}
