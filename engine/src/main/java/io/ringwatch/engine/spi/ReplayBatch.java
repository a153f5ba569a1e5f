package io.ringwatch.engine.spi;

import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * A batch of changes as recovery replays them: each change's key and the key's state after it
 * (value, lease, create and mod revision, version), without the previous value and the timestamp,
 * which replay never reads. Keys and values lie back to back in one buffer ({@link #bytes()}); the
 * fields of change {@code i} are read with the indexed getters. Filled by
 * {@link HistoryReader#fill(ReplayBatch)}.
 *
 * <p>Threads: one at a time; recovery fills a batch on its reader thread and hands it to the
 * opening thread through a ring that publishes the hand-over. Allocation: the batch allocates its
 * arrays once; its buffer grows (doubling) only when a batch holds more bytes than any before.
 */
public final class ReplayBatch
{
    private final ExpandableDirectByteBuffer bytes;
    private final boolean[] puts;
    private final int[] keyOffsets;
    private final int[] keyLengths;
    private final int[] valueLengths;
    private final long[] leases;
    private final long[] createRevisions;
    private final long[] modRevisions;
    private final long[] versions;
    private EventRecord scratch;
    private int count;
    private int limit;
    private long lastRevision;

    /**
     * Creates an empty batch. Any thread; allocates its arrays and a buffer of
     * {@code initialBytes}.
     *
     * @param capacity     the most changes the batch holds, at least 1.
     * @param initialBytes the buffer's first size in bytes, at least 1.
     * @throws IllegalArgumentException if an argument is not positive.
     */
    public ReplayBatch(final int capacity, final int initialBytes)
    {
        if (capacity < 1 || initialBytes < 1)
        {
            throw new IllegalArgumentException("a replay batch needs a positive capacity and size: " + capacity +
                " changes, " + initialBytes + " bytes");
        }
        this.bytes = new ExpandableDirectByteBuffer(initialBytes);
        this.puts = new boolean[capacity];
        this.keyOffsets = new int[capacity];
        this.keyLengths = new int[capacity];
        this.valueLengths = new int[capacity];
        this.leases = new long[capacity];
        this.createRevisions = new long[capacity];
        this.modRevisions = new long[capacity];
        this.versions = new long[capacity];
    }

    /** Empties the batch for refilling; keeps {@link #lastRevision()}. No allocation. */
    public void clear()
    {
        count = 0;
        limit = 0;
    }

    /**
     * @return whether the batch holds as many changes as it can.
     */
    public boolean isFull()
    {
        return count == puts.length;
    }

    /**
     * @return the number of changes in the batch, from index 0.
     */
    public int count()
    {
        return count;
    }

    /**
     * @return the revision of the newest change ever added, 0 before any (not reset by
     * {@link #clear()}).
     */
    public long lastRevision()
    {
        return lastRevision;
    }

    /**
     * Appends a put: copies its key and value into the batch. No allocation unless the buffer must
     * grow.
     *
     * @param revision       the change's revision.
     * @param source         buffer holding the key, then (anywhere in it) the value.
     * @param keyOffset      offset of the key in {@code source}.
     * @param keyLength      the key's length.
     * @param valueOffset    offset of the value in {@code source}.
     * @param valueLength    the value's length.
     * @param lease          the key's lease after the put, 0 for none.
     * @param createRevision the key's create revision after the put.
     * @param modRevision    the key's mod revision after the put.
     * @param version        the key's version after the put.
     * @throws IllegalStateException if the batch is full.
     */
    public void addPut(
        final long revision,
        final DirectBuffer source, final int keyOffset, final int keyLength, final int valueOffset, final int valueLength,
        final long lease, final long createRevision, final long modRevision, final long version)
    {
        final int i = claim(revision, keyLength + valueLength);
        bytes.putBytes(limit, source, keyOffset, keyLength);
        bytes.putBytes(limit + keyLength, source, valueOffset, valueLength);
        puts[i] = true;
        valueLengths[i] = valueLength;
        leases[i] = lease;
        createRevisions[i] = createRevision;
        modRevisions[i] = modRevision;
        versions[i] = version;
        end(i, keyLength, valueLength);
    }

    /**
     * Appends a delete: copies its key into the batch. No allocation unless the buffer must grow.
     *
     * @param revision  the change's revision.
     * @param source    buffer holding the key.
     * @param keyOffset offset of the key in {@code source}.
     * @param keyLength the key's length.
     * @throws IllegalStateException if the batch is full.
     */
    public void addDelete(final long revision, final DirectBuffer source, final int keyOffset, final int keyLength)
    {
        final int i = claim(revision, keyLength);
        bytes.putBytes(limit, source, keyOffset, keyLength);
        puts[i] = false;
        valueLengths[i] = 0;
        leases[i] = 0;
        createRevisions[i] = 0;
        modRevisions[i] = 0;
        versions[i] = 0;
        end(i, keyLength, 0);
    }

    /**
     * Appends the change {@code change} holds (what {@link HistoryReader#next} returned).
     *
     * @param change the change to copy.
     * @throws IllegalStateException if the batch is full.
     */
    public void add(final EventRecord change)
    {
        if (change.type() == EventType.PUT)
        {
            final DirectBuffer key = change.key();
            final DirectBuffer value = change.value();
            final int i = claim(change.revision(), change.keyLength() + change.valueLength());
            bytes.putBytes(limit, key, 0, change.keyLength());
            bytes.putBytes(limit + change.keyLength(), value, 0, change.valueLength());
            puts[i] = true;
            valueLengths[i] = change.valueLength();
            leases[i] = change.lease();
            createRevisions[i] = change.createRevision();
            modRevisions[i] = change.modRevision();
            versions[i] = change.version();
            end(i, change.keyLength(), change.valueLength());
        }
        else
        {
            addDelete(change.revision(), change.key(), 0, change.keyLength());
        }
    }

    private int claim(final long revision, final int length)
    {
        if (isFull())
        {
            throw new IllegalStateException("the replay batch is full: " + count + " changes");
        }
        bytes.checkLimit(limit + length);
        lastRevision = revision;
        return count;
    }

    private void end(final int i, final int keyLength, final int valueLength)
    {
        keyOffsets[i] = limit;
        keyLengths[i] = keyLength;
        limit += keyLength + valueLength;
        count = i + 1;
    }

    /**
     * The record {@link HistoryReader#fill(ReplayBatch)}'s default reads each change into before
     * copying it here; made on first use, then reused.
     */
    EventRecord scratch()
    {
        if (scratch == null)
        {
            scratch = new EventRecord();
        }
        return scratch;
    }

    /**
     * @return the buffer that holds every change's key, then its value.
     */
    public DirectBuffer bytes()
    {
        return bytes;
    }

    /**
     * @param i the change, from 0 to {@link #count()} - 1.
     * @return whether the change is a put (else a delete).
     */
    public boolean isPut(final int i)
    {
        return puts[i];
    }

    /**
     * @param i the change.
     * @return the offset of its key in {@link #bytes()}.
     */
    public int keyOffset(final int i)
    {
        return keyOffsets[i];
    }

    /**
     * @param i the change.
     * @return its key's length.
     */
    public int keyLength(final int i)
    {
        return keyLengths[i];
    }

    /**
     * @return the key offsets of all changes, indexed like the getters; read only.
     */
    public int[] keyOffsets()
    {
        return keyOffsets;
    }

    /**
     * @return the key lengths of all changes, indexed like the getters; read only.
     */
    public int[] keyLengths()
    {
        return keyLengths;
    }

    /**
     * @param i the change.
     * @return the offset of its value in {@link #bytes()}, right after its key.
     */
    public int valueOffset(final int i)
    {
        return keyOffsets[i] + keyLengths[i];
    }

    /**
     * @param i the change.
     * @return its value's length, 0 for a delete.
     */
    public int valueLength(final int i)
    {
        return valueLengths[i];
    }

    /**
     * @param i the change.
     * @return the key's lease after a put, 0 for none or a delete.
     */
    public long lease(final int i)
    {
        return leases[i];
    }

    /**
     * @param i the change.
     * @return the key's create revision after a put, 0 for a delete.
     */
    public long createRevision(final int i)
    {
        return createRevisions[i];
    }

    /**
     * @param i the change.
     * @return the key's mod revision after a put, 0 for a delete.
     */
    public long modRevision(final int i)
    {
        return modRevisions[i];
    }

    /**
     * @param i the change.
     * @return the key's version after a put, 0 for a delete.
     */
    public long version(final int i)
    {
        return versions[i];
    }
}
