package io.ringwatch.informer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded single-producer single-consumer ring of handler notifications with pre-allocated
 * slots filled in place (the Disruptor's way): the informer's thread produces, one handler thread
 * consumes, and neither allocates or blocks. The producer checks {@link #freeSlots()} before
 * {@link #push}; a full ring is the caller's signal to coalesce instead.
 *
 * <p>Publication: slots are written with plain stores, then {@code tail} is set (a volatile
 * store); the consumer reads {@code tail} before the slots and frees them by setting {@code head}.
 * Volatile (not merely release) stores keep the handler thread's park/unpark handshake sound: a
 * producer that publishes and then reads the consumer's "waiting" flag cannot have the two
 * reordered.
 */
final class NotificationRing
{
    static final byte ADD = 1;
    static final byte UPDATE = 2;
    static final byte DELETE = 3;
    static final byte SYNCED = 4;

    /** Receives one notification taken from the ring. */
    interface Consumer
    {
        void accept(byte kind, CachedObject oldObj, CachedObject newObj);
    }

    private final int capacity;
    private final int mask;
    private final byte[] kinds;
    private final CachedObject[] olds;
    private final CachedObject[] news;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();

    NotificationRing(final int capacity)
    {
        this.capacity = capacity;
        this.mask = capacity - 1;
        kinds = new byte[capacity];
        olds = new CachedObject[capacity];
        news = new CachedObject[capacity];
    }

    /**
     * Producer only.
     */
    int freeSlots()
    {
        return capacity - (int)(tail.getPlain() - head.get());
    }

    /**
     * Producer only, after checking that a slot is free.
     */
    void push(final byte kind, final CachedObject oldObj, final CachedObject newObj)
    {
        final long t = tail.getPlain();
        final int slot = (int)t & mask;
        kinds[slot] = kind;
        olds[slot] = oldObj;
        news[slot] = newObj;
        tail.set(t + 1);
    }

    /**
     * Consumer only: takes the oldest notification, frees its slot, then hands it over.
     *
     * @return false when the ring was empty.
     */
    boolean take(final Consumer consumer)
    {
        final long h = head.getPlain();
        if (h == tail.get())
        {
            return false;
        }
        final int slot = (int)h & mask;
        final byte kind = kinds[slot];
        final CachedObject oldObj = olds[slot];
        final CachedObject newObj = news[slot];
        // Cleared so a consumed slot pins no object that has left the cache.
        olds[slot] = null;
        news[slot] = null;
        head.set(h + 1);
        consumer.accept(kind, oldObj, newObj);
        return true;
    }

    /**
     * Any thread.
     */
    boolean isEmpty()
    {
        return head.get() == tail.get();
    }
}
