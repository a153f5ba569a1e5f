package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.IndexVisitor;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One named secondary index: its function and an {@link OffHeapIndex} of composite keys
 * ({@link CompositeKeys}) with empty values, so an index value's keys are one ordered prefix
 * range, found in O(log n) and scanned lock-free by readers exactly like the primary index.
 *
 * <p>Threads: one mutator at a time: the thread building it, then (after a safe hand-over) the
 * writer. Readers enter through its {@link ReadGuard}; the direct memory is freed when the
 * index is retired and the last reader has left. Mutations allocate nothing in steady state.
 */
final class SecondaryIndex
{
    static final int PENDING = 0;
    static final int ACTIVE = 1;
    static final int FAILED = 2;
    /** The writer could not catch the build up: the window no longer held its events. */
    static final int LAPPED = 3;

    private static final UnsafeBuffer NO_VALUE = new UnsafeBuffer(new byte[0]);
    private static final int INITIAL_KEYS = 1024;

    final String name;
    final IndexFunction function;
    private final OffHeapIndex entries = new OffHeapIndex(INITIAL_KEYS);
    private final ReadGuard guard = new ReadGuard(entries::close);
    private final ExpandableArrayBuffer composite = new ExpandableArrayBuffer(128);
    private final IndexEntry removed = new IndexEntry();
    private final IndexValues replayOld = new IndexValues();
    private final IndexValues replayNew = new IndexValues();
    private volatile int state = PENDING;
    private volatile RuntimeException failure;
    /** Mutator-owned: the revision up to which the entries are exact. */
    long exactThrough;

    SecondaryIndex(final String name, final IndexFunction function)
    {
        this.name = name;
        this.function = function;
    }

    int state()
    {
        return state;
    }

    RuntimeException failure()
    {
        return failure;
    }

    void activate()
    {
        state = ACTIVE;
    }

    void lapped()
    {
        state = LAPPED;
    }

    void fail(final RuntimeException cause)
    {
        failure = cause;
        state = FAILED;
    }

    /**
     * Moves a key from its old index values to its new ones. Mutator only. With {@code exact}
     * the entries are known to hold exactly the old values, so only the difference is written;
     * without it (repairing a fuzzy build) every new value is written again, which makes replay
     * idempotent however far the scan had got.
     *
     * @throws IndexFunctionException with {@code exact}, when an old value is not filed: the
     * function derived other values from the old value than when it was written (it is not
     * deterministic), so the key stays filed under values it no longer has; the caller disables
     * the index.
     */
    void update(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final IndexValues olds, final IndexValues news, final long revision, final boolean exact)
    {
        for (int i = 0, size = olds.size(); i < size; i++)
        {
            if (!news.containsValueOf(olds, i))
            {
                final int length = CompositeKeys.encode(composite, olds, i, key, keyOffset, keyLength);
                if (!entries.remove(composite, 0, length, removed) && exact)
                {
                    throw new IndexFunctionException("index '" + name + "': the function derived an index value from a " +
                        "key's previous value that it had not derived when that value was written");
                }
            }
        }
        for (int i = 0, size = news.size(); i < size; i++)
        {
            if (!exact || !olds.containsValueOf(news, i))
            {
                final int length = CompositeKeys.encode(composite, news, i, key, keyOffset, keyLength);
                entries.put(composite, 0, length, NO_VALUE, 0, 0, revision, removed);
            }
        }
    }

    /**
     * Applies the window's events in (after, upTo] over the entries, re-deriving old and new
     * index values from each event's previous and new value. Mutator only; every event up to
     * {@code upTo} must be published, or appended when the writer replays ({@code appended}: in a
     * SYNC engine the writer runs ahead of what the durability gate has published).
     *
     * @return false when the window no longer holds them all (nothing is exact then).
     * @throws io.ringwatch.engine.errors.IndexFunctionException if the function throws on a value.
     */
    boolean replay(
        final WatchWindow window, final EventRecord record, final long after, final long upTo, final boolean appended)
    {
        if (upTo > after)
        {
            final long first = window.firstSequenceAtOrAfter(after + 1);
            if (first == WatchWindow.REVISION_EVICTED)
            {
                return false;
            }
            for (long sequence = first; ; sequence++)
            {
                final int status = appended ? window.readAppended(sequence, record) : window.read(sequence, record);
                if (status == WatchWindow.READ_NOT_PUBLISHED || (status == WatchWindow.READ_OK && record.revision() > upTo))
                {
                    break;
                }
                if (status != WatchWindow.READ_OK)
                {
                    return false;
                }
                if (record.revision() > after)
                {
                    replayOld.collectPrevious(name, function, record);
                    replayNew.collectCurrent(name, function, record);
                    update(record.key(), 0, record.keyLength(), replayOld, replayNew, record.revision(), false);
                }
            }
        }
        exactThrough = Math.max(exactThrough, upTo);
        return true;
    }

    boolean enter()
    {
        return guard.enter();
    }

    void leave()
    {
        guard.leave();
    }

    /** Refuses new readers and frees the direct memory once the last one has left. Any thread. */
    void retire()
    {
        guard.retire();
    }

    /**
     * Visits the keys filed under {@code indexValue}, fuzzily (see {@link OffHeapIndex#scan}).
     * Reader thread inside {@link #enter()}; {@code visitor} receives composite entries, whose
     * key starts at {@link #keyOffset(int)}.
     */
    void scanValue(final byte[] indexValue, final IndexVisitor visitor)
    {
        final byte[] from = CompositeKeys.prefix(indexValue);
        final byte[] to = Keys.prefixEnd(from);
        entries.scan(new UnsafeBuffer(from), 0, from.length, to == null ? null : new UnsafeBuffer(to), 0,
            to == null ? 0 : to.length, 0, visitor);
    }

    static int keyOffset(final int indexValueLength)
    {
        return CompositeKeys.LENGTH_BYTES + indexValueLength;
    }

    /**
     * Lists the distinct index values, in (length, bytes) order, skipping from one value's range
     * to the next: O(values × log n). Reader thread inside {@link #enter()}; fuzzy: a value
     * whose keys all stay for the whole call is listed, one that comes or goes may be missed.
     */
    List<byte[]> distinctValues()
    {
        final List<byte[]> values = new ArrayList<>();
        final byte[][] prefixSeen = new byte[1][];
        final IndexVisitor takePrefix = entry ->
        {
            final byte[] prefix = new byte[keyOffset(CompositeKeys.valueLength(entry.key()))];
            entry.key().getBytes(0, prefix);
            prefixSeen[0] = prefix;
            return false;
        };
        byte[] from = new byte[0];
        while (from != null)
        {
            prefixSeen[0] = null;
            entries.scan(new UnsafeBuffer(from), 0, from.length, null, 0, 0, 1, takePrefix);
            final byte[] prefix = prefixSeen[0];
            if (prefix == null)
            {
                break;
            }
            values.add(Arrays.copyOfRange(prefix, CompositeKeys.LENGTH_BYTES, prefix.length));
            from = Keys.prefixEnd(prefix);
        }
        return values;
    }
}
