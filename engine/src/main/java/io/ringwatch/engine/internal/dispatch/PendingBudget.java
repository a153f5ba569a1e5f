package io.ringwatch.engine.internal.dispatch;

import java.util.ArrayList;

/**
 * One dispatcher shard's share of the engine's budget of pending queue entries, and the queues
 * it gives out: each watcher's queue is allocated with the first event routed to it, at most
 * {@code depth} deep, set aside when the watcher leaves the routes (and handed back, emptied, when
 * it rejoins them), and dropped when it ends.
 *
 * <p>Counting costs no atomic per event: the shard counts what it offers and, only when that
 * count reaches the share, recounts exactly what its queues still hold (their consumers drain
 * them meanwhile), at most once per duty cycle. An offer that finds the share spent is refused,
 * as an offer to a full queue is; the dispatcher then sends that watcher to read by cursor.
 *
 * <p>Threads: the owning dispatcher thread only. Allocation: a queue per watcher that has
 * events (kept when the watcher leaves the routes and reused when it rejoins them), and the
 * holders list as it grows; nothing per event, nor per overflow.
 */
final class PendingBudget
{
    private static final int INITIAL_QUEUE_CAPACITY = 8;

    private final int depth;
    private final long share;
    private final int initialCapacity;
    private final ArrayList<WatcherState> holders = new ArrayList<>();
    private long counted;
    private long recountedInCycle = -1;

    /**
     * @param depth the most entries one watcher's queue holds.
     * @param share the most entries all this shard's queues hold together.
     */
    PendingBudget(final int depth, final long share)
    {
        this.depth = depth;
        this.share = share;
        this.initialCapacity = Math.min(INITIAL_QUEUE_CAPACITY, Integer.highestOneBit(depth));
    }

    /**
     * Appends {@code entry} to the watcher's queue, allocating the queue if it has none.
     *
     * @param watcher the watcher.
     * @param entry   the queue entry.
     * @param cycle   the dispatcher's current duty cycle, to recount at most once in it.
     * @return false when the watcher's queue is full or the share is spent.
     */
    boolean offer(final WatcherState watcher, final long entry, final long cycle)
    {
        if (counted >= share && !recount(cycle))
        {
            return false;
        }
        final ShardFields fields = watcher.shardFields();
        PendingQueue queue = fields.pending;
        if (queue == null)
        {
            queue = takeSpareOrAllocate(fields);
            fields.pending = queue;
        }
        if (!queue.offer(entry))
        {
            return false;
        }
        counted++;
        if (fields.holderIndex < 0)
        {
            fields.holderIndex = holders.size();
            holders.add(watcher);
        }
        return true;
    }

    /**
     * Takes the watcher's queue away and forgets the watcher: it left the routes (its consumer reads
     * by cursor and drops what was queued) or ended. A consumer still delivering from the queue
     * finishes with its own reference. The queue is kept as the watcher's spare, for when it
     * rejoins (an ended watcher's fields are dropped with it). Allocates nothing.
     *
     * @param watcher the watcher.
     */
    void release(final WatcherState watcher)
    {
        final ShardFields fields = watcher.shardFieldsOrNull();
        if (fields == null)
        {
            return;
        }
        final PendingQueue queue = fields.pending;
        if (queue != null)
        {
            fields.pending = null;
            fields.spare = queue;
            fields.markerAt = -1;
            counted = Math.max(0, counted - queue.size());
        }
        if (fields.holderIndex >= 0)
        {
            removeHolder(fields.holderIndex);
        }
    }

    /**
     * @return the number of watchers whose queues this shard counts.
     */
    int holderCount()
    {
        return holders.size();
    }

    /**
     * @return the entries this shard counts as pending: exact after a recount, an upper bound
     * between them.
     */
    long counted()
    {
        return counted;
    }

    /**
     * @return the most entries this shard's queues hold together.
     */
    long share()
    {
        return share;
    }

    /**
     * The watcher's spare queue, emptied, or a new one. Only an unrouted watcher has a spare, and
     * the routes offer to it again only after its consumer, done with the queue and reading by
     * cursor, asked to rejoin (a command, so its last use of the queue happens before this); the
     * caller publishes the queue by the volatile write of {@link ShardFields#pending}.
     */
    private PendingQueue takeSpareOrAllocate(final ShardFields fields)
    {
        final PendingQueue spare = fields.spare;
        if (spare == null)
        {
            return new PendingQueue(initialCapacity, depth);
        }
        fields.spare = null;
        spare.dropUnread();
        return spare;
    }

    private boolean recount(final long cycle)
    {
        if (recountedInCycle == cycle)
        {
            return false;
        }
        recountedInCycle = cycle;
        long total = 0;
        for (int i = holders.size() - 1; i >= 0; i--)
        {
            final PendingQueue queue = holders.get(i).pending();
            final int size = queue == null ? 0 : queue.size();
            if (size == 0)
            {
                removeHolder(i);
            }
            total += size;
        }
        counted = total;
        return counted < share;
    }

    private void removeHolder(final int index)
    {
        final int last = holders.size() - 1;
        final WatcherState removed = holders.get(index);
        final WatcherState moved = holders.get(last);
        holders.set(index, moved);
        moved.shardFieldsOrNull().holderIndex = index;
        holders.remove(last);
        removed.shardFieldsOrNull().holderIndex = -1;
    }
}
