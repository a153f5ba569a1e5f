package io.ringwatch.engine.internal.undo;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.ringbuffer.PaddedSequence;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The revisions that consistent reads have pinned: a fixed table of slots, one per read in
 * flight, each on its own cache line, plus a counter every pin and unpin raises so that the
 * writer looks at the slots only when something changed (one volatile read per revision
 * otherwise).
 *
 * <p>A read claims a slot as {@link #PENDING} (its revision not known yet), raises the counter,
 * learns its revision and stores it, raises the counter again; unpinning frees the slot and
 * raises the counter. Readers: any thread, lock-free (a read finding every slot taken spins
 * until one frees). Writer: {@link #changes()} and {@link #slot(int)}.
 *
 * <p>A read may also say which keys it reads ({@link #scope}, before it pins: published by the
 * pin's counter raise) and, as its scan moves on in key order, the last key it has read
 * ({@link #pass}, a release store, no counter raise): the writer need not keep pre-images of keys
 * outside the scope or already passed. A slot's scope and passed key are cleared before it frees.
 */
final class ReadPins
{
    /** A slot no read holds. */
    static final long FREE = -2;
    /** A slot whose read has not yet learned its revision: the writer keeps everything from now on. */
    static final long PENDING = -1;
    /** Longs between two slots: one 64-byte line each, so readers never share a line. */
    private static final int STRIDE = 8;

    private final AtomicLongArray slots;
    private final AtomicReferenceArray<KeyRange> scopes;
    private final AtomicReferenceArray<byte[]> passed;
    private final int count;
    private final PaddedSequence changes = new PaddedSequence(0);

    /**
     * @param count how many reads may be pinned at once.
     */
    ReadPins(final int count)
    {
        this.count = count;
        slots = new AtomicLongArray(count * STRIDE);
        scopes = new AtomicReferenceArray<>(count);
        passed = new AtomicReferenceArray<>(count);
        for (int i = 0; i < count; i++)
        {
            slots.set(i * STRIDE, FREE);
        }
    }

    /** @return how many slots the table has. */
    int count()
    {
        return count;
    }

    /**
     * Claims a free slot as {@link #PENDING} and makes the claim visible to the writer: the
     * counter's increment is a full fence, so a revision the writer begins after the caller's
     * next read of the writer's progress sees the claim. Any reader thread.
     *
     * @return the slot.
     */
    int claim()
    {
        // A random first probe spreads concurrent readers over the slots.
        int i = ThreadLocalRandom.current().nextInt(count);
        for (int probes = 0; ; probes++)
        {
            if (slots.get(i * STRIDE) == FREE && slots.compareAndSet(i * STRIDE, FREE, PENDING))
            {
                bump();
                return i;
            }
            i = i + 1 == count ? 0 : i + 1;
            if (probes >= count)
            {
                probes = 0;
                Thread.yield();
            }
        }
    }

    /**
     * @param slot     a slot this reader claimed.
     * @param revision the revision the read is exact at.
     */
    void pinAt(final int slot, final long revision)
    {
        slots.set(slot * STRIDE, revision);
        bump();
    }

    /**
     * @param slot a slot this reader claimed; free from now on.
     */
    void release(final int slot)
    {
        scopes.set(slot, null);
        passed.set(slot, null);
        slots.set(slot * STRIDE, FREE);
        bump();
    }

    /**
     * @param slot  a slot this reader claimed and has not pinned yet.
     * @param range the keys the read reads; null for every key.
     */
    void scope(final int slot, final KeyRange range)
    {
        scopes.set(slot, range);
    }

    /**
     * @param slot a slot this reader pinned.
     * @param key  the last key its scan has read, in key order; every key up to it is read. The
     *             caller does not modify it afterwards.
     */
    void pass(final int slot, final byte[] key)
    {
        passed.setRelease(slot, key);
    }

    /**
     * @param slot the slot.
     * @return the keys its read reads, or null for every key.
     */
    KeyRange scope(final int slot)
    {
        return scopes.get(slot);
    }

    /**
     * @param slot the slot.
     * @return the last key its read has passed, or null for none yet.
     */
    byte[] passed(final int slot)
    {
        return passed.getAcquire(slot);
    }

    /** @return raised by every claim, pin and release; the writer's one look per revision. */
    long changes()
    {
        return changes.getVolatile();
    }

    /**
     * @param slot the slot.
     * @return its revision, {@link #FREE} or {@link #PENDING}.
     */
    long slot(final int slot)
    {
        return slots.get(slot * STRIDE);
    }

    private void bump()
    {
        long current;
        do
        {
            current = changes.getVolatile();
        }
        while (!changes.compareAndSet(current, current + 1));
    }
}
