package io.ringwatch.engine.secondary;

import io.ringwatch.engine.RingWatchException;
import io.ringwatch.engine.index.IndexEntry;
import io.ringwatch.engine.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.write.RevisionCursor;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Consistent {@code byIndex} reads while the writer keeps writing, the way
 * {@link io.ringwatch.engine.read.RangeReader} reads ranges: note the applied revision R0, scan
 * the index value's composite keys and fetch each key's entry from the primary index (both
 * fuzzy), read the writer's {@code applying} bound A, wait until A is applied, then replay the
 * window's events in (R0, A]: a touched key is in the result exactly when its last event's new
 * value has the index value. Keys not touched in (R0, A] were stable in both indexes, so the
 * scan saw them right. The result is the index value's keys at A.
 *
 * <p>Thread-safe; any reader thread. Allocates the result and the heap copies in it.
 */
final class ByIndexReader
{
    private static final int MAX_ATTEMPTS = 16;

    private final OffHeapIndex primary;
    private final WatchWindow window;
    private final RevisionCursor cursor;
    private final ThreadLocal<EventRecord> records = ThreadLocal.withInitial(EventRecord::new);
    private final ThreadLocal<IndexEntry> entries = ThreadLocal.withInitial(IndexEntry::new);
    private final ThreadLocal<IndexValues> derived = ThreadLocal.withInitial(IndexValues::new);

    ByIndexReader(final OffHeapIndex primary, final WatchWindow window, final RevisionCursor cursor)
    {
        this.primary = primary;
        this.window = window;
        this.cursor = cursor;
    }

    RangeResult read(final SecondaryIndex index, final byte[] indexValue)
    {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final long before = cursor.applied();
            final TreeMap<byte[], KeyValue> found = new TreeMap<>(Arrays::compareUnsigned);
            scan(index, indexValue, found);
            final long revision = cursor.awaitApplying();
            if (repair(index, indexValue, before, revision, found))
            {
                return new RangeResult(revision, new ArrayList<>(found.values()), false);
            }
        }
        throw new RingWatchException("could not read index '" + index.name + "' consistently: the window was overwritten " +
            MAX_ATTEMPTS + " times during the scan; enlarge the window's capacity");
    }

    private void scan(final SecondaryIndex index, final byte[] indexValue, final TreeMap<byte[], KeyValue> found)
    {
        final int keyOffset = SecondaryIndex.keyOffset(indexValue.length);
        final IndexEntry entry = entries.get();
        index.scanValue(indexValue, composite ->
        {
            final int keyLength = composite.keyLength() - keyOffset;
            if (primary.get(composite.key(), keyOffset, keyLength, entry))
            {
                final byte[] key = entry.keyBytes();
                found.put(key, new KeyValue(key, entry.valueBytes(),
                    entry.createRevision(), entry.modRevision(), entry.version()));
            }
            return true;
        });
    }

    private boolean repair(
        final SecondaryIndex index, final byte[] indexValue, final long before, final long revision,
        final TreeMap<byte[], KeyValue> found)
    {
        if (revision <= before)
        {
            return true;
        }
        final long first = window.firstSequenceAtOrAfter(before + 1);
        if (first == WatchWindow.REVISION_EVICTED)
        {
            return false;
        }
        final EventRecord record = records.get();
        final IndexValues values = derived.get();
        final UnsafeBuffer wanted = new UnsafeBuffer(indexValue);
        for (long sequence = first; ; sequence++)
        {
            final int status = window.read(sequence, record);
            if (status == WatchWindow.READ_NOT_PUBLISHED || (status == WatchWindow.READ_OK && record.revision() > revision))
            {
                return true;
            }
            if (status != WatchWindow.READ_OK)
            {
                return false;
            }
            if (record.revision() <= before)
            {
                continue;
            }
            values.collectCurrent(index.name, index.function, record);
            final byte[] key = new byte[record.keyLength()];
            record.key().getBytes(0, key);
            if (values.contains(wanted, 0, indexValue.length))
            {
                final byte[] value = new byte[record.valueLength()];
                record.value().getBytes(0, value);
                found.put(key, new KeyValue(key, value, record.createRevision(), record.modRevision(), record.version()));
            }
            else
            {
                found.remove(key);
            }
        }
    }
}
