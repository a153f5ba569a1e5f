package io.ringwatch.engine.internal.dispatch;

import org.agrona.BitUtil;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongConsumer;

/**
 * A watcher's FIFO queue of pending window sequences: primitive longs, never boxed.
 * <p>
 * <b>Threading:</b> single producer, single consumer. The producer (the dispatcher thread) alone calls
 * {@link #offer}, {@link #capacity} and, while no consumer uses the queue, {@link #dropUnread}; the
 * consumer (whichever thread drains the watcher) alone calls {@link #poll}, {@link #peek} and
 * {@link #drain}; any thread may call {@link #size}, {@link #isEmpty} and {@link #maxCapacity}. Neither
 * side ever waits for the other.
 * <p>
 * <b>Memory:</b> it starts with a small array and doubles it, up to what {@code maxCapacity} needs, only
 * when full: about 180 bytes with an initial capacity of 8 (the dispatcher allocates a watcher's queue only
 * with its first event, so an idle watcher holds none). Growth never copies:
 * the producer links a larger array after the current one and carries on there, while the consumer
 * finishes the old array and then follows the link. Arrays never shrink.
 * <p>
 * <b>Overflow:</b> {@link #offer} returns false rather than hold more than {@code maxCapacity} values; the
 * dispatcher then takes that watcher off the routes and lets it read by its own cursor, and when it rejoins
 * hands it the same queue again, emptied by {@link #dropUnread} (the one call that writes the consumer's side,
 * made while no consumer uses the queue), so a watcher that keeps overflowing allocates nothing.
 * <p>
 * <b>Allocation:</b> offer allocates only when it grows the queue (at most log2(max / initial) times in its
 * life); poll, peek, drain, dropUnread, size and isEmpty never allocate.
 * <p>
 * {@link #EMPTY} ({@code Long.MIN_VALUE}) is reserved: poll and peek return it for "nothing pending", so it
 * cannot be offered; window sequences and revisions are never negative, so no real value is lost.
 */
public final class PendingQueue
{
    /**
     * Returned by {@link #poll()} and {@link #peek()} when nothing is pending; rejected by {@link #offer}.
     */
    public static final long EMPTY = Long.MIN_VALUE;

    /**
     * The largest {@code maxCapacity} accepted: the largest power of two an int array length can be.
     */
    public static final int MAX_CAPACITY_LIMIT = 1 << 30;

    // Ordering: the producer writes a value (and, on growth, the link to the next array) with plain stores,
    // then publishes producerIndex with a release store; the consumer reads producerIndex with an acquire
    // load before it reads any slot or link, so it always sees them written. Symmetrically the consumer
    // publishes consumerIndex with release after reading a slot, and the producer acquires it before reusing
    // that slot, so a slot is never overwritten before it was read. On x86 both are plain moves.
    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_INDEX = lookup.findVarHandle(PendingQueue.class, "producerIndex", long.class);
            CONSUMER_INDEX = lookup.findVarHandle(PendingQueue.class, "consumerIndex", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    // No padding against false sharing between the two sides: with up to millions of queues, padding would
    // cost more memory than the contention it saves; each side caches the other's index instead.
    private final int maxCapacity;
    private final int maxArrayLength;

    private Segment producerSegment;
    private long producerIndex;
    private long producerLimit;

    private Segment consumerSegment;
    private long consumerIndex;
    private long knownProducerIndex;

    /**
     * Creates an empty queue holding one array of {@code initialCapacity} slots. Any thread; allocates the
     * queue and its first array.
     *
     * @param initialCapacity slots of the first array: a power of two of at least 1.
     * @param maxCapacity     the most values it holds at once: at least {@code initialCapacity} and at most
     *                        {@link #MAX_CAPACITY_LIMIT}; need not be a power of two.
     * @throws IllegalArgumentException if a capacity is out of range.
     */
    public PendingQueue(final int initialCapacity, final int maxCapacity)
    {
        if (initialCapacity < 1 || Integer.bitCount(initialCapacity) != 1)
        {
            throw new IllegalArgumentException("initialCapacity must be a power of two >= 1: " + initialCapacity);
        }
        if (maxCapacity < initialCapacity || maxCapacity > MAX_CAPACITY_LIMIT)
        {
            throw new IllegalArgumentException(
                "maxCapacity must be in [initialCapacity=" + initialCapacity + ", " + MAX_CAPACITY_LIMIT + "]: " +
                maxCapacity);
        }

        this.maxCapacity = maxCapacity;
        this.maxArrayLength = BitUtil.findNextPositivePowerOfTwo(maxCapacity);
        final Segment first = new Segment(initialCapacity, 0);
        this.producerSegment = first;
        this.consumerSegment = first;
    }

    /**
     * Appends a value. Producer thread only; allocates only when it doubles the queue's array.
     *
     * @param value the value to append; anything but {@link #EMPTY}.
     * @return true if appended, false if the queue already holds {@code maxCapacity} values.
     * @throws IllegalArgumentException if the value is {@link #EMPTY}.
     */
    public boolean offer(final long value)
    {
        if (EMPTY == value)
        {
            throw new IllegalArgumentException("Long.MIN_VALUE is reserved as PendingQueue.EMPTY");
        }

        final long index = producerIndex;
        if (index >= producerLimit && !makeRoom(index))
        {
            return false;
        }

        final Segment segment = producerSegment;
        segment.values[(int)index & segment.mask] = value;
        PRODUCER_INDEX.setRelease(this, index + 1);
        return true;
    }

    /**
     * Removes and returns the oldest value. Consumer thread only; allocates nothing.
     *
     * @return the oldest value, or {@link #EMPTY} if nothing is pending.
     */
    public long poll()
    {
        final long index = consumerIndex;
        if (!isPublished(index))
        {
            return EMPTY;
        }

        final long value = read(index);
        CONSUMER_INDEX.setRelease(this, index + 1);
        return value;
    }

    /**
     * Returns the oldest value without removing it. Consumer thread only; allocates nothing.
     *
     * @return the oldest value, or {@link #EMPTY} if nothing is pending.
     */
    public long peek()
    {
        final long index = consumerIndex;
        return isPublished(index) ? read(index) : EMPTY;
    }

    /**
     * Removes up to {@code limit} values, oldest first, passing each to the handler. Each value is removed
     * before the handler sees it, so if the handler throws, that value is gone and the rest stay queued.
     * Consumer thread only; allocates nothing.
     *
     * @param handler receives each value.
     * @param limit   the most values to remove; zero or more.
     * @return the number of values removed.
     * @throws IllegalArgumentException if the handler is null or the limit negative.
     */
    public int drain(final LongConsumer handler, final int limit)
    {
        if (null == handler)
        {
            throw new IllegalArgumentException("handler must not be null");
        }
        if (limit < 0)
        {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }

        int drained = 0;
        while (drained < limit)
        {
            // Re-read each time: the handler runs on the consumer thread and may itself poll.
            final long index = consumerIndex;
            if (!isPublished(index))
            {
                break;
            }
            final long value = read(index);
            CONSUMER_INDEX.setRelease(this, index + 1);
            drained++;
            handler.accept(value);
        }
        return drained;
    }

    /**
     * Drops every value not yet removed and keeps the queue's largest array, so that a queue its
     * consumer has let go of can take offers again without allocating (a watcher that fell off the
     * routes and rejoins them). Producer thread only, and only while no consumer uses the queue: the
     * consumer's last use must happen before this call, and the queue must be handed to a consumer
     * again only after it, through a volatile write that consumer reads first. Allocates nothing.
     */
    public void dropUnread()
    {
        final long index = producerIndex;
        consumerSegment = producerSegment;
        knownProducerIndex = index;
        // The next offer finds no room left and recomputes it from here.
        producerLimit = index;
        CONSUMER_INDEX.setRelease(this, index);
    }

    /**
     * Whether nothing is pending. Any thread: exact on the consumer thread or when quiescent, otherwise a
     * snapshot that may already be stale. Allocates nothing.
     *
     * @return true if no value is pending.
     */
    public boolean isEmpty()
    {
        return (long)CONSUMER_INDEX.getAcquire(this) >= (long)PRODUCER_INDEX.getAcquire(this);
    }

    /**
     * Number of pending values. Any thread: exact when quiescent, otherwise approximate, but always within
     * {@code [0, maxCapacity]}. Allocates nothing.
     *
     * @return the number of pending values.
     */
    public int size()
    {
        // Consumer index first: the producer index read afterwards can only be larger, so the difference
        // is never negative.
        final long consumed = (long)CONSUMER_INDEX.getAcquire(this);
        final long produced = (long)PRODUCER_INDEX.getAcquire(this);
        return (int)Math.min(produced - consumed, maxCapacity);
    }

    /**
     * How many values were ever offered: the index the next offer takes. Producer thread only;
     * allocates nothing.
     *
     * @return the count of values offered.
     */
    public long offeredCount()
    {
        return producerIndex;
    }

    /**
     * How many values were ever removed: a value offered at index {@code i} (see
     * {@link #offeredCount()}) has been removed once this exceeds {@code i}. Any thread; allocates
     * nothing.
     *
     * @return the count of values removed.
     */
    public long removedCount()
    {
        return (long)CONSUMER_INDEX.getAcquire(this);
    }

    /**
     * Length of the array the producer currently writes to: how far the queue has grown. Producer thread
     * only (or when quiescent); allocates nothing.
     *
     * @return the current array length.
     */
    public int capacity()
    {
        return producerSegment.values.length;
    }

    /**
     * The most values the queue holds at once. Any thread; allocates nothing.
     *
     * @return the maximum capacity given at construction.
     */
    public int maxCapacity()
    {
        return maxCapacity;
    }

    private boolean makeRoom(final long index)
    {
        final long consumed = (long)CONSUMER_INDEX.getAcquire(this);
        if (index - consumed >= maxCapacity)
        {
            return false;
        }

        Segment segment = producerSegment;
        // The current array holds indices from max(consumed, its first index) on; older ones are read.
        long oldestInSegment = Math.max(consumed, segment.firstIndex);
        if (index - oldestInSegment >= segment.values.length)
        {
            // Never at the largest array: there, full implies maxCapacity values, refused above.
            segment = grow(segment, index);
            oldestInSegment = index;
        }
        producerLimit = Math.min(consumed + maxCapacity, oldestInSegment + segment.values.length);
        return true;
    }

    private Segment grow(final Segment full, final long firstIndex)
    {
        final Segment larger = new Segment(Math.min(full.values.length * 2, maxArrayLength), firstIndex);
        full.next = larger; // published to the consumer by the release of producerIndex in offer
        producerSegment = larger;
        return larger;
    }

    private boolean isPublished(final long index)
    {
        if (index < knownProducerIndex)
        {
            return true;
        }
        knownProducerIndex = (long)PRODUCER_INDEX.getAcquire(this);
        return index < knownProducerIndex;
    }

    private long read(final long index)
    {
        Segment segment = consumerSegment;
        final Segment next = segment.next;
        // One step is enough: every array holds at least one value, so indices cross links one at a time.
        if (null != next && index >= next.firstIndex)
        {
            segment = next;
            consumerSegment = next;
        }
        return segment.values[(int)index & segment.mask];
    }

    /**
     * One array of the queue, holding indices from {@code firstIndex} on until the next segment takes over.
     */
    private static final class Segment
    {
        final long[] values;
        final int mask;
        final long firstIndex;
        Segment next;

        Segment(final int length, final long firstIndex)
        {
            this.values = new long[length];
            this.mask = length - 1;
            this.firstIndex = firstIndex;
        }
    }
}
