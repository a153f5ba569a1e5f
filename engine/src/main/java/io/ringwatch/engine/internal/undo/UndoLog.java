package io.ringwatch.engine.internal.undo;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.PaddedSequence;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What pinned reads need from the writer: while any read is pinned, the pre-image of every key
 * the writer changes after the newest pinned revision's view of it, in an off-heap undo area, so
 * a reader can turn a fuzzy scan of the live index into the exact state at its pinned revision.
 *
 * <p><b>Writer</b> ({@link #onRevision}, once per revision, after the revision's changes are in
 * the index): one volatile read of the pin table's change counter when nothing changed; no pin,
 * nothing else. With pins it appends, for each change whose previous modRevision is at most the
 * newest pinned revision (a later one means every pinned read already has this key's older
 * pre-image), the key, the previous value and revisions (or "absent" for a created key), stamped
 * with the change's revision. A read that said which keys it reads and how far its scan in key order
 * has come ({@link #scope}, {@link #pass}) does not need the pre-image of a key outside its range or
 * one its scan already read: while every pinned read did so, and no pin came or went during the
 * revision, the writer keeps only the pre-images some read still needs. The passed keys are those
 * the writer saw in {@link #beginRevision}, before it changed anything: a key the scan read before
 * that look was read before the change. Segments come from a pool of direct memory; a segment whose newest
 * entry is not after the oldest pin is recycled, all of them once no read is pinned, and then all
 * but a few spare ones are freed. A range read's scan, each time it reports how far it has come,
 * allocates a segment for the writer when the writer has fewer than a few spare ones
 * ({@link #pass}): the writer then rarely allocates, and never zeroes new memory, while it keeps
 * pre-images for a big read (allocating and first touching 1 MiB of direct memory cost it more
 * than the copies it keeps). Live and pooled segments never exceed the budget by more than one
 * segment per reader allocating at that moment.
 * The writer never waits and never fails because of a reader: when the undo area would exceed
 * its budget, it drops everything kept and marks every read pinned before the current revision
 * broken ({@link ReadBudgetExceededException} for them).
 *
 * <p><b>Readers</b> (any thread, lock-free): {@link #pin()} a slot, learn the revision (the
 * writer's bound learnt after the pin, once applied: the end of the flush group the writer had
 * announced), {@link #pinAt}, scan, wait until {@link #recordedRevision()} reaches what the scan
 * may have seen, {@link #readSince} the pre-images, {@link #unpin}. The protocol is a Dekker pair
 * per flush group: the reader raises the pin counter then reads the writer's announcement; the
 * writer announces a group (its first revision) then reads the counter at each revision of it, so
 * every revision after the end of the group the reader saw announced is recorded for it. A pin the
 * writer first sees at revision R was missed at R - 1, so its read learns a bound of at least
 * R - 1 (see {@code refresh}).
 *
 * <p>Deterministic: what the writer keeps depends on the pins only, never on time or hashing.
 */
public final class UndoLog
{
    /** Bytes before an entry's key: length, key length, value length (-1 absent), revision and the three revisions. */
    static final int HEADER = 56;
    private static final int LENGTH = 0;
    private static final int KEY_LENGTH = 4;
    private static final int VALUE_LENGTH = 8;
    private static final int REVISION = 16;
    private static final int CREATE_REVISION = 24;
    private static final int MOD_REVISION = 32;
    private static final int VERSION = 40;
    private static final int LEASE = 48;
    private static final int MIN_SEGMENT_BYTES = 1 << 20;
    /** Spare segments kept for the next read once the last one left; the rest are freed. */
    private static final int POOLED_SEGMENTS = 4;
    /** Readers allocate a segment for the writer while it has fewer spare ones than this. */
    private static final int SPARE_WANTED = 4;
    private static final int PIN_SLOTS = 256;
    /**
     * Revisions between two looks at the passed keys: an older look only keeps more (a scan passes
     * a few keys per revision), and the look's loads, a miss each time a scan reported, were a
     * third of what the writer spent on pinned reads.
     */
    private static final int LOOK_EVERY = 16;

    private final ReadPins pins = new ReadPins(PIN_SLOTS);
    private final long budgetBytes;
    private final int segmentBytes;
    private final int maxSegments;
    private final UndoSegment[] ring;
    private final int mask;
    private final PaddedSequence head = new PaddedSequence(0);
    private final PaddedSequence tail = new PaddedSequence(0);
    private final PaddedSequence recorded = new PaddedSequence(-1);
    private final PaddedSequence brokenBelow = new PaddedSequence(-1);
    private final ArrayDeque<UndoSegment> pool = new ArrayDeque<>();
    /** Segments readers allocated for the writer: readers offer, the writer polls. */
    private final ManyToOneConcurrentArrayQueue<UndoSegment> donated = new ManyToOneConcurrentArrayQueue<>(SPARE_WANTED);
    /** The writer's pooled segments, published for readers deciding whether to allocate one. */
    private final PaddedSequence spare = new PaddedSequence(0);
    /** Segments allocated and not freed: live, pooled and donated. */
    private final AtomicInteger segments = new AtomicInteger();
    /** Segments the writer thread allocated itself: a figure for tests. */
    private long allocatedByWriter;

    // Writer only: its view of the pins, refreshed when their counter moves.
    private long seenPinChanges;
    private int activePins;
    private long newestPin;
    private long oldestPin;
    private UndoSegment current;
    private int position;
    // Writer only: the pinned reads' scopes and passed keys, for the revision being applied.
    private final int[] activeSlots = new int[PIN_SLOTS];
    private final KeyRange[] activeScopes = new KeyRange[PIN_SLOTS];
    private final byte[][] passedKeys = new byte[PIN_SLOTS][];
    private long passedSeenAt = -1;
    private int untilLook;

    /**
     * @param budgetBytes   the most direct memory the undo area may hold for pinned reads.
     * @param maxEntryBytes the largest key plus value a change can carry.
     */
    public UndoLog(final long budgetBytes, final int maxEntryBytes)
    {
        this(budgetBytes, maxEntryBytes, MIN_SEGMENT_BYTES);
    }

    /**
     * An undo log with segments as small as {@code minSegmentBytes}: for stress tests, which
     * want many segments recycled under few entries.
     *
     * @param budgetBytes     the most direct memory the undo area may hold for pinned reads.
     * @param maxEntryBytes   the largest key plus value a change can carry.
     * @param minSegmentBytes the smallest segment, a power of two; a segment always holds the
     *                        largest entry.
     */
    public UndoLog(final long budgetBytes, final int maxEntryBytes, final int minSegmentBytes)
    {
        this.budgetBytes = budgetBytes;
        final long wanted = Math.max(minSegmentBytes, align(HEADER + (long)maxEntryBytes));
        segmentBytes = (int)Math.min(1L << 30, Long.highestOneBit(wanted - 1) << 1);
        maxSegments = (int)Math.max(1, Math.min(1 << 20, budgetBytes / segmentBytes));
        ring = new UndoSegment[Integer.highestOneBit(maxSegments) << 1];
        mask = ring.length - 1;
    }

    /** @return the budget this log was given, in bytes. */
    public long budgetBytes()
    {
        return budgetBytes;
    }

    /**
     * @return how many segments the writer thread allocated itself (none a reader gave it); a
     * figure for tests. Writer thread, or any thread once the writer is quiet.
     */
    public long segmentsAllocatedByWriter()
    {
        return allocatedByWriter;
    }

    /** @return bytes of undo the writer holds for pinned reads now (whole segments); any thread. */
    public long bytesInUse()
    {
        return (tail.get() - head.get()) * (long)segmentBytes;
    }

    // ------------------------------------------------------------------ writer

    /**
     * Looks at how far the pinned reads' scans have come, before the writer changes anything in a
     * revision: every {@value #LOOK_EVERY} revisions, and at the first after the pins changed (a
     * look made before earlier revisions is still one made before this revision's changes). Writer
     * thread only, before each revision's first change to the index; with no read pinned, or
     * between looks, it reads two fields. Allocates nothing.
     */
    public void beginRevision()
    {
        if (activePins == 0 || (passedSeenAt != -1 && --untilLook > 0))
        {
            return;
        }
        untilLook = LOOK_EVERY;
        passedSeenAt = pins.changes();
        for (int i = 0; i < activePins; i++)
        {
            passedKeys[i] = pins.passed(activeSlots[i]);
        }
    }

    /**
     * Keeps the pre-images pinned reads need from one applied revision. Writer thread only, once
     * per revision after its changes are in the index and before the next revision begins, with
     * {@link #beginRevision()} called before the first of them. Allocates only a new segment when
     * the pool is empty and no reader gave one.
     *
     * @param revision the revision.
     * @param changes  its changes, each with the key's state before it.
     */
    public void onRevision(final long revision, final ChangeRecord changes)
    {
        final long pinChanges = pins.changes();
        // The scopes and passed keys describe the pinned reads only if no pin came or went since the look.
        // A pending read (newest pin unbounded) has published no scope yet: keep everything for it.
        final boolean narrow =
            pinChanges == seenPinChanges && passedSeenAt == pinChanges && newestPin != Long.MAX_VALUE;
        if (pinChanges != seenPinChanges)
        {
            seenPinChanges = pinChanges;
            refresh(revision);
        }
        if (activePins == 0)
        {
            return;
        }
        changes.rewind();
        while (changes.next())
        {
            // A created key (previous modRevision 0) is kept too: readers must drop it.
            if (changes.prevModRevision() <= newestPin && (!narrow || anyReadNeeds(changes)) && !append(revision, changes))
            {
                break;
            }
        }
        if (current != null)
        {
            current.publish(position);
        }
        // A release store: it publishes the entries above to readers, who only poll it; the pin
        // protocol's full fence is the writer's announcement of its flush group, not this.
        recorded.set(revision);
    }

    /** Whether some pinned read may not have read the changed key yet. */
    private boolean anyReadNeeds(final ChangeRecord changes)
    {
        final DirectBuffer key = changes.key();
        final int keyLength = changes.keyLength();
        for (int i = 0; i < activePins; i++)
        {
            // The passed key first: one comparison settles most keys a scan has read.
            final byte[] passed = passedKeys[i];
            if (passed != null && KeyRange.compare(key, keyLength, passed) <= 0)
            {
                continue;
            }
            final KeyRange scope = activeScopes[i];
            if (scope == null || scope.contains(key, keyLength))
            {
                return true;
            }
        }
        return false;
    }

    private void refresh(final long revision)
    {
        int active = 0;
        long newest = -1;
        long oldest = Long.MAX_VALUE;
        passedSeenAt = -1;
        for (int i = 0, n = pins.count(); i < n; i++)
        {
            final long pin = pins.slot(i);
            if (pin == ReadPins.FREE)
            {
                continue;
            }
            activeSlots[active] = i;
            activeScopes[active] = pins.scope(i);
            passedKeys[active] = null;
            active++;
            // A pending read will be exact at a revision no older than the one before this.
            final long at = pin == ReadPins.PENDING ? revision - 1 : pin;
            newest = pin == ReadPins.PENDING ? Long.MAX_VALUE : Math.max(newest, at);
            oldest = Math.min(oldest, at);
        }
        for (int i = active; i < activePins; i++)
        {
            activeScopes[i] = null;
            passedKeys[i] = null;
        }
        activePins = active;
        newestPin = newest;
        oldestPin = oldest;
        if (active == 0)
        {
            dropAll();
            trimPool();
        }
        else
        {
            reclaim();
        }
    }

    /**
     * With no read pinned, frees the spare segments beyond a few. A reader reaches a segment only
     * through the ring after raising the pin counter, so if the counter has not moved since the
     * writer saw no pins, and the ring no longer holds the segments, no reader can reach them.
     */
    private void trimPool()
    {
        if (pins.changes() != seenPinChanges)
        {
            return;
        }
        UndoSegment given;
        while ((given = donated.poll()) != null)
        {
            pool.add(given);
        }
        while (pool.size() > POOLED_SEGMENTS)
        {
            pool.poll().free();
            segments.decrementAndGet();
        }
        spare.set(pool.size());
    }

    private boolean append(final long revision, final ChangeRecord changes)
    {
        final boolean absent = changes.prevModRevision() == 0;
        final int keyLength = changes.keyLength();
        final int valueLength = absent ? 0 : changes.prevValueLength();
        final int length = (int)align(HEADER + (long)keyLength + valueLength);
        if (current == null || position + length > segmentBytes)
        {
            if (!nextSegment())
            {
                overflow(revision);
                return false;
            }
        }
        final UnsafeBuffer buffer = current.buffer;
        final int at = position;
        buffer.putInt(at + LENGTH, length);
        buffer.putInt(at + KEY_LENGTH, keyLength);
        buffer.putInt(at + VALUE_LENGTH, absent ? -1 : valueLength);
        buffer.putLong(at + REVISION, revision);
        buffer.putLong(at + CREATE_REVISION, changes.prevCreateRevision());
        buffer.putLong(at + MOD_REVISION, changes.prevModRevision());
        buffer.putLong(at + VERSION, changes.prevVersion());
        buffer.putLong(at + LEASE, changes.prevLease());
        buffer.putBytes(at + HEADER, changes.key(), 0, keyLength);
        if (valueLength > 0)
        {
            buffer.putBytes(at + HEADER + keyLength, changes.prevValue(), 0, valueLength);
        }
        position = at + length;
        current.lastRevision = revision;
        return true;
    }

    private boolean nextSegment()
    {
        if (current != null)
        {
            current.publish(position);
        }
        reclaim();
        final long sequence = tail.getPlain();
        if (sequence - head.getPlain() >= maxSegments)
        {
            return false;
        }
        final UndoSegment segment = takeSegment();
        segment.assign(sequence);
        ring[(int)sequence & mask] = segment;
        tail.setVolatile(sequence + 1);
        current = segment;
        position = 0;
        return true;
    }

    /** A pooled segment, else one a reader gave, else a new one. */
    private UndoSegment takeSegment()
    {
        UndoSegment segment = pool.poll();
        if (segment != null)
        {
            spare.set(pool.size());
            return segment;
        }
        segment = donated.poll();
        if (segment != null)
        {
            return segment;
        }
        segments.incrementAndGet();
        allocatedByWriter++;
        return new UndoSegment(segmentBytes);
    }

    /** Recycles the oldest segments that hold nothing after the oldest pin (never the one being written). */
    private void reclaim()
    {
        long first = head.getPlain();
        final long end = tail.getPlain();
        while (first < end - 1 && ring[(int)first & mask].lastRevision <= oldestPin)
        {
            release(first);
            first++;
            head.setVolatile(first);
        }
    }

    /** The budget is spent: every read pinned before this revision fails; the writer goes on. */
    private void overflow(final long revision)
    {
        brokenBelow.setVolatile(Math.max(brokenBelow.getPlain(), revision));
        dropAll();
    }

    private void dropAll()
    {
        final long end = tail.getPlain();
        long first = head.getPlain();
        head.setVolatile(end);
        for (; first < end; first++)
        {
            release(first);
        }
        current = null;
        position = 0;
    }

    private void release(final long sequence)
    {
        final int at = (int)sequence & mask;
        final UndoSegment segment = ring[at];
        segment.assign(UndoSegment.FREE);
        ring[at] = null;
        // Pooled, not freed: a pinned reader may still be copying from it (and will drop the copy).
        pool.add(segment);
        spare.set(pool.size());
    }

    // ------------------------------------------------------------------ readers

    /**
     * Claims a pin slot for a read whose revision is not known yet: from the writer's next
     * revision on, it keeps everything. Then read the writer's bound, wait until it is applied and
     * pass it to {@link #pinAt}. Any thread; spins while every slot is taken.
     *
     * @return the slot.
     */
    public int pin()
    {
        return pins.claim();
    }

    /**
     * Says which keys a read reads, so the writer may skip the pre-images of others. Call between
     * {@link #pin()} and {@link #pinAt}. Any thread.
     *
     * @param slot  the slot {@link #pin()} gave.
     * @param range the keys the read reads; null for every key.
     */
    public void scope(final int slot, final KeyRange range)
    {
        pins.scope(slot, range);
    }

    /**
     * Says that a pinned read's scan, in ascending key order, has read every key of its range up
     * to and including {@code key}: the writer need not keep pre-images of those keys for it any
     * more. Also gives the writer a new segment when it has fewer than a few spare ones, so that
     * the writer need not allocate (and zero) the memory a big read makes it keep. Any thread; the
     * caller's own slot; allocates a segment of direct memory at times, nothing else.
     *
     * @param slot the slot {@link #pin()} gave, pinned.
     * @param key  the last key read; not modified afterwards.
     */
    public void pass(final int slot, final byte[] key)
    {
        pins.pass(slot, key);
        if (spare.get() + donated.size() < SPARE_WANTED)
        {
            donate();
        }
    }

    private void donate()
    {
        if (segments.incrementAndGet() > maxSegments)
        {
            segments.decrementAndGet();
            return;
        }
        final UndoSegment segment = new UndoSegment(segmentBytes);
        if (!donated.offer(segment))
        {
            segment.free();
            segments.decrementAndGet();
        }
    }

    /**
     * @param slot     the slot {@link #pin()} gave.
     * @param revision the revision the read is exact at.
     */
    public void pinAt(final int slot, final long revision)
    {
        pins.pinAt(slot, revision);
    }

    /**
     * Ends a read: the writer may recycle what only it needed. Any thread.
     *
     * @param slot the slot {@link #pin()} gave.
     */
    public void unpin(final int slot)
    {
        pins.release(slot);
    }

    /**
     * @return the newest revision whose pre-images are all kept (readable by {@link #readSince});
     * moves only while some read is pinned. Any thread.
     */
    public long recordedRevision()
    {
        return recorded.getVolatile();
    }

    /**
     * Visits, oldest first, every kept pre-image of a change after {@code pinRevision} to a key
     * that {@code range} holds (all keys for null). Call it while pinned at that revision, after
     * {@link #recordedRevision()} reached every revision the caller's scan may have seen. Any
     * thread; allocates nothing unless {@code staging} grows.
     *
     * @param pinRevision the reader's pinned revision.
     * @param range       the keys wanted, or null for all.
     * @param staging     the caller's scratch buffer.
     * @param visitor     receives the pre-images.
     * @throws ReadBudgetExceededException if the writer had to drop pre-images this read needs.
     */
    public void readSince(
        final long pinRevision, final KeyRange range, final ExpandableArrayBuffer staging, final UndoVisitor visitor)
    {
        final UnsafeBuffer key = new UnsafeBuffer(0, 0);
        final long end = tail.getVolatile();
        for (long sequence = head.getVolatile(); sequence < end; sequence++)
        {
            final UndoSegment segment = ring[(int)sequence & mask];
            if (segment == null || segment.sequence() != sequence)
            {
                continue;
            }
            final int staged = stage(segment, pinRevision, range, staging, key);
            VarHandle.acquireFence();
            if (segment.sequence() != sequence)
            {
                // Recycled while read: it held nothing after any pinned revision, so nothing of ours.
                continue;
            }
            visitStaged(staging, staged, visitor);
        }
        VarHandle.acquireFence();
        if (brokenBelow.getVolatile() > pinRevision)
        {
            throw new ReadBudgetExceededException(budgetBytes);
        }
    }

    /** Copies the segment's entries after the pin, in the range, into the staging buffer. */
    private static int stage(
        final UndoSegment segment, final long pinRevision, final KeyRange range, final ExpandableArrayBuffer staging,
        final UnsafeBuffer key)
    {
        final UnsafeBuffer buffer = segment.buffer;
        final int limit = Math.min(segment.limit(), buffer.capacity());
        int staged = 0;
        int length;
        for (int at = 0; at + HEADER <= limit; at += length)
        {
            length = buffer.getInt(at + LENGTH);
            final int keyLength = buffer.getInt(at + KEY_LENGTH);
            if (length < HEADER || length > limit - at || keyLength < 1 || keyLength > length - HEADER)
            {
                // Only a segment recycled under the read looks like this; the caller drops it.
                break;
            }
            if (buffer.getLong(at + REVISION) <= pinRevision)
            {
                continue;
            }
            if (range != null)
            {
                key.wrap(buffer, at + HEADER, keyLength);
                if (!range.contains(key, keyLength))
                {
                    continue;
                }
            }
            staging.putBytes(staged, buffer, at, length);
            staged += length;
        }
        return staged;
    }

    private static void visitStaged(final DirectBuffer staging, final int staged, final UndoVisitor visitor)
    {
        for (int at = 0; at < staged; at += staging.getInt(at + LENGTH))
        {
            final int keyLength = staging.getInt(at + KEY_LENGTH);
            visitor.visit(staging, at + HEADER, keyLength, at + HEADER + keyLength, staging.getInt(at + VALUE_LENGTH),
                staging.getLong(at + CREATE_REVISION), staging.getLong(at + MOD_REVISION), staging.getLong(at + VERSION),
                staging.getLong(at + LEASE));
        }
    }

    private static long align(final long bytes)
    {
        return (bytes + 7) & ~7L;
    }
}
