package io.ringwatch.engine.read;

import io.ringwatch.engine.RingWatchException;
import io.ringwatch.engine.index.IndexEntry;
import io.ringwatch.engine.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.write.RevisionCursor;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Consistent reads of the off-heap index while the writer keeps writing, with no lock and no
 * pause of the writer.
 *
 * <p>How: note the applied revision R0, scan the index (a fuzzy scan: each entry is an untorn
 * version, but entries may come from different moments), then read the writer's
 * {@code applying} bound A, which is at least the revision of every change the scan could have
 * seen, and wait the few microseconds until A is fully applied. Every key that changed during
 * the scan has an event in (R0, A] in the watch window; replaying those events over the scan
 * gives exactly the state at A, the way a database repairs a fuzzy checkpoint with its log.
 * If the window no longer holds (R0, A] the read starts over.
 *
 * <p>Durability gate: in a SYNC engine {@code applied} moves only once a revision is durable, so
 * waiting for A also waits until A is durable (up to one group commit: a read that saw a revision
 * still being forced returns once its batch's flush is done). A point read waits the same way.
 * After a journal failure the index is rolled back to the durable revision; a read that
 * overlapped the roll-back starts over.
 *
 * <p>Thread-safe; any reader thread. Allocates the result (heap copies of keys and values).
 */
public final class RangeReader
{
    private static final int MAX_ATTEMPTS = 16;

    private final OffHeapIndex index;
    private final WatchWindow window;
    private final RevisionCursor cursor;
    private final boolean awaitDurable;
    private final ThreadLocal<EventRecord> records = ThreadLocal.withInitial(EventRecord::new);
    private final ThreadLocal<IndexEntry> entries = ThreadLocal.withInitial(IndexEntry::new);

    /**
     * @param index  the index to read.
     * @param window the window holding the recent events used for repair.
     * @param cursor the writer's progress.
     * @param awaitDurable true in a SYNC engine: a point read returns only once what it saw is
     *                     durable (range reads always wait for what they saw to be visible).
     */
    public RangeReader(final OffHeapIndex index, final WatchWindow window, final RevisionCursor cursor,
        final boolean awaitDurable)
    {
        this.index = index;
        this.window = window;
        this.cursor = cursor;
        this.awaitDurable = awaitDurable;
    }

    /**
     * @param key the key.
     * @return its current key-value, or null when absent.
     */
    public KeyValue get(final byte[] key)
    {
        final IndexEntry entry = entries.get();
        return get(new UnsafeBuffer(key), 0, key.length, entry) ? toKeyValue(entry) : null;
    }

    /**
     * Zero-allocation point read into a caller's holder; in a SYNC engine it returns only once
     * what it read is durable.
     *
     * @param key    buffer holding the key.
     * @param offset where the key starts.
     * @param length the key's length.
     * @param into   receives the entry.
     * @return true when the key exists.
     */
    public boolean get(final DirectBuffer key, final int offset, final int length, final IndexEntry into)
    {
        while (true)
        {
            final long stamp = cursor.readStamp();
            final boolean found = index.get(key, offset, length, into);
            if (awaitDurable)
            {
                cursor.awaitApplying();
            }
            if (cursor.isStable(stamp))
            {
                return found;
            }
        }
    }

    /**
     * Reads a range consistent at one revision.
     *
     * @param range the keys.
     * @param limit the most key-values to return; 0 for all.
     * @return the key-values current at the result's revision, in key order.
     * @throws RingWatchException if no consistent read could be made because the writer kept
     *                            overwriting the window faster than the scan ran.
     */
    public RangeResult range(final KeyRange range, final int limit)
    {
        int scanLimit = limit <= 0 ? 0 : limit + 1;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
        {
            final long stamp = cursor.readStamp();
            final long before = cursor.applied();
            final TreeMap<byte[], KeyValue> found = new TreeMap<>(Arrays::compareUnsigned);
            final int scanned = scan(range, scanLimit, found);
            final boolean truncated = scanLimit > 0 && scanned >= scanLimit;
            final byte[] lastScanned = truncated ? found.lastKey() : null;
            final long revision = cursor.awaitApplying();
            if (!cursor.isStable(stamp))
            {
                // The index was rolled back under the scan (a journal failure): read again.
                attempt--;
                continue;
            }
            if (!repair(range, before, revision, lastScanned, found))
            {
                continue;
            }
            if (limit <= 0)
            {
                return new RangeResult(revision, new ArrayList<>(found.values()), false);
            }
            if (truncated && found.size() <= limit)
            {
                // Deletes during the scan left too few keys below the cut: scan further.
                scanLimit = scanLimit * 2;
                continue;
            }
            return new RangeResult(revision, first(found, limit), found.size() > limit);
        }
        throw new RingWatchException("could not read " + range + " consistently: the window was overwritten " +
            MAX_ATTEMPTS + " times during the scan; enlarge the window's capacity");
    }

    private int scan(final KeyRange range, final int scanLimit, final TreeMap<byte[], KeyValue> found)
    {
        final byte[] from = range.fromKey();
        if (range.isSingleKey())
        {
            final IndexEntry entry = entries.get();
            if (!index.get(new UnsafeBuffer(from), 0, from.length, entry))
            {
                return 0;
            }
            found.put(entry.keyBytes(), toKeyValue(entry));
            return 1;
        }
        final byte[] to = range.toKey();
        return index.scan(new UnsafeBuffer(from), 0, from.length, to == null ? null : new UnsafeBuffer(to), 0,
            to == null ? 0 : to.length, scanLimit, entry ->
            {
                final KeyValue kv = toKeyValue(entry);
                found.put(entry.keyBytes(), kv);
                return true;
            });
    }

    private boolean repair(
        final KeyRange range, final long before, final long revision, final byte[] lastScanned,
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
        for (long sequence = first; ; sequence++)
        {
            final int status = window.read(sequence, record);
            if (status == WatchWindow.READ_NOT_PUBLISHED)
            {
                return true;
            }
            if (status != WatchWindow.READ_OK)
            {
                return false;
            }
            if (record.revision() > revision)
            {
                return true;
            }
            if (record.revision() <= before || !range.contains(record.key(), record.keyLength()))
            {
                continue;
            }
            final byte[] key = new byte[record.keyLength()];
            record.key().getBytes(0, key);
            if (lastScanned != null && Arrays.compareUnsigned(key, lastScanned) > 0)
            {
                continue;
            }
            if (record.type() == EventType.DELETE)
            {
                found.remove(key);
            }
            else
            {
                final byte[] value = new byte[record.valueLength()];
                record.value().getBytes(0, value);
                found.put(key, new KeyValue(key, value, record.createRevision(), record.modRevision(), record.version()));
            }
        }
    }

    private static List<KeyValue> first(final TreeMap<byte[], KeyValue> found, final int limit)
    {
        final List<KeyValue> kvs = new ArrayList<>(limit);
        for (final Map.Entry<byte[], KeyValue> e : found.entrySet())
        {
            if (kvs.size() == limit)
            {
                break;
            }
            kvs.add(e.getValue());
        }
        return kvs;
    }

    private static KeyValue toKeyValue(final IndexEntry entry)
    {
        return new KeyValue(entry.keyBytes(), entry.valueBytes(), entry.createRevision(), entry.modRevision(), entry.version());
    }
}
