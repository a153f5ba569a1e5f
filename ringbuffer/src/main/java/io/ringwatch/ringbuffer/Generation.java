package io.ringwatch.ringbuffer;

import static io.ringwatch.ringbuffer.SlotLayout.CREATE_REVISION;
import static io.ringwatch.ringbuffer.SlotLayout.DATA_POSITION;
import static io.ringwatch.ringbuffer.SlotLayout.KEY_LENGTH;
import static io.ringwatch.ringbuffer.SlotLayout.LEASE;
import static io.ringwatch.ringbuffer.SlotLayout.PREV_CREATE_REVISION;
import static io.ringwatch.ringbuffer.SlotLayout.PREV_LEASE;
import static io.ringwatch.ringbuffer.SlotLayout.PREV_MOD_REVISION;
import static io.ringwatch.ringbuffer.SlotLayout.PREV_VALUE_LENGTH;
import static io.ringwatch.ringbuffer.SlotLayout.PREV_VERSION;
import static io.ringwatch.ringbuffer.SlotLayout.REVISION;
import static io.ringwatch.ringbuffer.SlotLayout.SEQUENCE;
import static io.ringwatch.ringbuffer.SlotLayout.SLOT_LENGTH;
import static io.ringwatch.ringbuffer.SlotLayout.TIMESTAMP;
import static io.ringwatch.ringbuffer.SlotLayout.TYPE;
import static io.ringwatch.ringbuffer.SlotLayout.VALUE_LENGTH;
import static io.ringwatch.ringbuffer.SlotLayout.VERSION;

import java.lang.invoke.VarHandle;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The storage of one window capacity: a ring of fixed-size slots and a ring of event bytes.
 * A resize builds a new generation and publishes it; the old one is never written again, so a
 * reader still holding it reads frozen, consistent data. A generation built ahead of a growth is
 * written by one other thread (the copier) before the writer takes it, never by both at once
 * ({@link PreparedGeneration}).
 * <p>
 * Lapping is detected as in Agrona's broadcast buffer: before the writer overwrites any slot or
 * data byte it raises {@link #oldestIntact} (the intent), then fences stores; a reader copies,
 * fences loads, and trusts the copy only if its sequence is still at or above that intent.
 * <p>
 * Memory is direct and owned by the buffers' {@code ByteBuffer}s, so it is freed by the garbage
 * collector only once no reader holds the generation any more.
 */
final class Generation
{
    private static final int ALIGNMENT = 64;
    private static final long NO_REVISION = 0;
    /** {@link #copyTo} result: the event is no longer in this generation. */
    static final int NOT_HELD = -1;

    final int capacity;
    final int dataCapacity;
    private final int slotMask;
    private final int dataMask;
    private final int maxEventBytes;
    private final UnsafeBuffer slots;
    private final UnsafeBuffer data;
    /** Addresses of the two rings' memory (direct), which {@link #write} stores at without Agrona's bounds checks. */
    private final long slotsAddress;
    private final long dataAddress;
    /** Oldest sequence whose slot and bytes are untouched; raised before anything is overwritten. */
    private final PaddedSequence oldestIntact;
    /** Revision of the newest event evicted so far (0 when none); written before oldestIntact. */
    private final PaddedSequence evictedRevision;

    /** Writer thread only: its own copy of oldestIntact. */
    private long writerOldest;
    /** Writer thread only: the next free byte position, increasing without bound. */
    private long dataTail;

    Generation(
        final int capacity,
        final int dataCapacity,
        final int maxEventBytes,
        final long firstSequence,
        final long evictedRevision)
    {
        this.capacity = capacity;
        this.dataCapacity = dataCapacity;
        this.slotMask = capacity - 1;
        this.dataMask = dataCapacity - 1;
        this.maxEventBytes = maxEventBytes;
        this.slots = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * SLOT_LENGTH, ALIGNMENT));
        this.data = new UnsafeBuffer(BufferUtil.allocateDirectAligned(dataCapacity, ALIGNMENT));
        this.slotsAddress = slots.addressOffset();
        this.dataAddress = data.addressOffset();
        for (int i = 0; i < capacity; i++)
        {
            slots.putLong(i * SLOT_LENGTH + SEQUENCE, -1);
        }
        this.writerOldest = firstSequence;
        this.oldestIntact = new PaddedSequence(firstSequence);
        this.evictedRevision = new PaddedSequence(evictedRevision);
    }

    /**
     * Places a generation built ahead of time at the sequence and evicted revision a resize gives
     * it, as the constructor would have: events it holds below {@code firstSequence} are dropped,
     * and the next write must be of {@code firstSequence} or of the sequence after the newest held.
     * Its owner (the writer, or the copier before the writer takes it), before it is published.
     */
    void startAt(final long firstSequence, final long evictedRevision)
    {
        writerOldest = firstSequence;
        this.evictedRevision.set(evictedRevision);
        oldestIntact.set(firstSequence);
    }

    /**
     * Writer thread: stores event {@code sequence}, first evicting (and announcing) every older
     * event whose slot or bytes it will overwrite. The event's key, value and previous value lie
     * contiguously in {@code source} from {@code bytesOffset}, so they are copied at once. The
     * caller has validated the arguments: the event's bytes are at most {@code maxEventBytes}, a
     * quarter of the data ring at most, and lie inside {@code source}. So every store lands inside
     * this generation by construction (the slot is the sequence masked, the bytes end at or before
     * the data ring's end), and the stores go to their addresses without Agrona's bounds checks,
     * which cost the writer an out-of-line check per field.
     *
     * @return how many events were evicted because the data ring, not the slot ring, was full.
     */
    int write(
        final long sequence,
        final long revision,
        final byte typeCode,
        final long timestampNanos,
        final DirectBuffer source,
        final int bytesOffset,
        final int keyLength,
        final int valueLength,
        final int prevValueLength,
        final long createRevision,
        final long version,
        final long prevCreateRevision,
        final long prevModRevision,
        final long prevVersion,
        final long lease,
        final long prevLease)
    {
        final int eventBytes = keyLength + valueLength + prevValueLength;
        long start = dataTail;
        int dataOffset = (int)(start & dataMask);
        if (dataOffset + eventBytes > dataCapacity)
        {
            // Keep every event contiguous: skip the ring's tail end rather than split the bytes.
            start += dataCapacity - dataOffset;
            dataOffset = 0;
        }
        final long end = start + eventBytes;
        final int dataEvictions = evictOverwrittenBy(sequence, end);

        final long slot = slotsAddress + slotOffset(sequence);
        UnsafeApi.putLong(slot + SEQUENCE, sequence);
        UnsafeApi.putLong(slot + REVISION, revision);
        UnsafeApi.putLong(slot + CREATE_REVISION, createRevision);
        UnsafeApi.putLong(slot + VERSION, version);
        UnsafeApi.putLong(slot + PREV_CREATE_REVISION, prevCreateRevision);
        UnsafeApi.putLong(slot + PREV_MOD_REVISION, prevModRevision);
        UnsafeApi.putLong(slot + PREV_VERSION, prevVersion);
        UnsafeApi.putLong(slot + TIMESTAMP, timestampNanos);
        UnsafeApi.putLong(slot + DATA_POSITION, start);
        UnsafeApi.putInt(slot + KEY_LENGTH, keyLength);
        UnsafeApi.putInt(slot + VALUE_LENGTH, valueLength);
        UnsafeApi.putInt(slot + PREV_VALUE_LENGTH, prevValueLength);
        UnsafeApi.putInt(slot + TYPE, typeCode);
        UnsafeApi.putLong(slot + LEASE, lease);
        UnsafeApi.putLong(slot + PREV_LEASE, prevLease);

        if (eventBytes > 0)
        {
            UncheckedCopy.copy(source.byteArray(), source.addressOffset() + bytesOffset, null, dataAddress + dataOffset, eventBytes);
        }
        dataTail = end;
        return dataEvictions;
    }

    /**
     * Copies event {@code sequence} of this generation into {@code target}: on the writer thread, from
     * this generation frozen by a resize ({@code validate} false); or on a thread other than the
     * writer, owning {@code target} (not yet published), from this generation while the writer may
     * still fill it ({@code validate} true). Then the copy is validated as a reader's is: the metadata
     * before anything is written, so a torn slot never drives the copy, and the bytes after, so a copy
     * whose bytes the writer overwrote meanwhile is reported. The caller has checked that the sequence
     * is published (validating) or held.
     *
     * @return events the target evicted for lack of data space; or {@link #NOT_HELD} when validating
     * and this generation no longer held the event (its oldest intact sequence passed it), in which
     * case {@code target}'s slot for it may hold garbage bytes and the caller must move {@code target}'s
     * start past it.
     */
    int copyTo(final long sequence, final Generation target, final boolean validate)
    {
        final int slot = slotOffset(sequence);
        final UnsafeBuffer slots = this.slots;
        if (validate && slots.getLong(slot + SEQUENCE) != sequence)
        {
            return NOT_HELD;
        }
        final long revision = slots.getLong(slot + REVISION);
        final int typeCode = slots.getInt(slot + TYPE);
        final long timestampNanos = slots.getLong(slot + TIMESTAMP);
        final long position = slots.getLong(slot + DATA_POSITION);
        final int keyLength = slots.getInt(slot + KEY_LENGTH);
        final int valueLength = slots.getInt(slot + VALUE_LENGTH);
        final int prevValueLength = slots.getInt(slot + PREV_VALUE_LENGTH);
        final long createRevision = slots.getLong(slot + CREATE_REVISION);
        final long version = slots.getLong(slot + VERSION);
        final long prevCreateRevision = slots.getLong(slot + PREV_CREATE_REVISION);
        final long prevModRevision = slots.getLong(slot + PREV_MOD_REVISION);
        final long prevVersion = slots.getLong(slot + PREV_VERSION);
        final long lease = slots.getLong(slot + LEASE);
        final long prevLease = slots.getLong(slot + PREV_LEASE);
        if (validate && !stillHeld(sequence))
        {
            return NOT_HELD;
        }
        final int dataEvictions = target.write(
            sequence, revision, (byte)typeCode, timestampNanos, data, (int)(position & dataMask),
            keyLength, valueLength, prevValueLength, createRevision, version,
            prevCreateRevision, prevModRevision, prevVersion, lease, prevLease);
        return validate && !stillHeld(sequence) ? NOT_HELD : dataEvictions;
    }

    /** Any thread, after reading an event: whether the writer had not begun to overwrite it by then. */
    private boolean stillHeld(final long sequence)
    {
        VarHandle.loadLoadFence();
        return sequence >= oldestIntact.get();
    }

    /**
     * Writer thread: the oldest event this generation still holds.
     */
    long writerOldest()
    {
        return writerOldest;
    }

    /**
     * Writer thread: when an event still held was appended.
     */
    long writerTimestampAt(final long sequence)
    {
        return slots.getLong(slotOffset(sequence) + TIMESTAMP);
    }

    /**
     * Writer thread: the revision of an event still held.
     */
    long writerRevisionAt(final long sequence)
    {
        return slots.getLong(slotOffset(sequence) + REVISION);
    }

    /**
     * Writer thread: the revision of the newest evicted event, 0 when none.
     */
    long writerEvictedRevision()
    {
        return evictedRevision.getPlain();
    }

    /**
     * Any thread: the oldest sequence this generation has not begun to overwrite.
     */
    long oldestIntact()
    {
        return oldestIntact.get();
    }

    /**
     * Any thread: the revision of the newest event evicted from this generation, 0 when none.
     */
    long evictedRevision()
    {
        return evictedRevision.get();
    }

    /**
     * Any thread: copies event {@code sequence} into {@code into} and validates the copy. The
     * caller has checked that the sequence is published.
     *
     * @return true if the copy is a complete, untorn event; false if the event is not (or no
     * longer) in this generation, in which case {@code into} holds undefined content.
     */
    boolean read(final long sequence, final EventRecord into, final boolean withValues)
    {
        final int slot = slotOffset(sequence);
        final UnsafeBuffer slots = this.slots;
        if (slots.getLong(slot + SEQUENCE) != sequence)
        {
            return false;
        }
        final long revision = slots.getLong(slot + REVISION);
        final long createRevision = slots.getLong(slot + CREATE_REVISION);
        final long version = slots.getLong(slot + VERSION);
        final long prevCreateRevision = slots.getLong(slot + PREV_CREATE_REVISION);
        final long prevModRevision = slots.getLong(slot + PREV_MOD_REVISION);
        final long prevVersion = slots.getLong(slot + PREV_VERSION);
        final long lease = slots.getLong(slot + LEASE);
        final long prevLease = slots.getLong(slot + PREV_LEASE);
        final long timestampNanos = slots.getLong(slot + TIMESTAMP);
        final long position = slots.getLong(slot + DATA_POSITION);
        final int keyLength = slots.getInt(slot + KEY_LENGTH);
        final int valueLength = slots.getInt(slot + VALUE_LENGTH);
        final int prevValueLength = slots.getInt(slot + PREV_VALUE_LENGTH);
        final EventType type = EventType.fromCodeOrNull(slots.getInt(slot + TYPE));

        // A slot being rewritten can hold any mix of values: never let them drive a copy out of
        // bounds or grow the record past the largest legal event.
        final int dataOffset = (int)(position & dataMask);
        final long eventBytes = (long)keyLength + valueLength + prevValueLength;
        if (null == type || keyLength < 0 || valueLength < 0 || prevValueLength < 0 ||
            eventBytes > maxEventBytes || dataOffset + eventBytes > dataCapacity)
        {
            return false;
        }
        into.copyFrom(
            sequence, revision, type, createRevision, version, prevCreateRevision, prevModRevision, prevVersion,
            timestampNanos, data, dataOffset, keyLength, valueLength, prevValueLength, withValues);
        into.leases(lease, prevLease);
        return stillHeld(sequence);
    }

    /**
     * Any thread: the revision of event {@code sequence}, validated like {@link #read}. The
     * caller has checked that the sequence is published.
     *
     * @return the revision (always positive), or 0 if the event is not (or no longer) here.
     */
    long revisionAt(final long sequence)
    {
        final int slot = slotOffset(sequence);
        if (slots.getLong(slot + SEQUENCE) != sequence)
        {
            return NO_REVISION;
        }
        final long revision = slots.getLong(slot + REVISION);
        return stillHeld(sequence) ? revision : NO_REVISION;
    }

    private int evictOverwrittenBy(final long sequence, final long dataEnd)
    {
        final long slotLimit = sequence - capacity;
        // An event starting at or after this position shares no byte of the ring with [.., dataEnd).
        final long dataLimit = dataEnd - dataCapacity;
        long oldest = writerOldest;
        long lastEvictedRevision = NO_REVISION;
        int dataEvictions = 0;
        while (oldest < sequence)
        {
            final int slot = slotOffset(oldest);
            if (oldest > slotLimit)
            {
                if (slots.getLong(slot + DATA_POSITION) >= dataLimit)
                {
                    break;
                }
                dataEvictions++;
            }
            lastEvictedRevision = slots.getLong(slot + REVISION);
            oldest++;
        }
        if (oldest != writerOldest)
        {
            evictedRevision.set(lastEvictedRevision);
            oldestIntact.set(oldest);
            // The intent must be visible before any byte of the evicted events changes.
            VarHandle.storeStoreFence();
            writerOldest = oldest;
        }
        return dataEvictions;
    }

    private int slotOffset(final long sequence)
    {
        return ((int)sequence & slotMask) * SLOT_LENGTH;
    }
}
