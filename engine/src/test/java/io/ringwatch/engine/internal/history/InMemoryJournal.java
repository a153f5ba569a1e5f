package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.SnapshotSink;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A journal in memory for tests: a fixed array of changes, published to readers revision by
 * revision. Counts flushes and batches (and appends outside a batch, flushes inside one), remembers
 * the revision a sync journal last made "durable", can hold its appends back (an ASYNC journal
 * behind the window) and can be told to fail, so tests can see what the writer does with a journal.
 * Can be reopened by a new engine (what a restart would read back from disk).
 */
public final class InMemoryJournal implements Journal
{
    private final Change[] changes;
    private final boolean sync;
    private final AtomicInteger flushes = new AtomicInteger();
    private final AtomicInteger batches = new AtomicInteger();
    /** Appends and flushes made where the batch rule says they may not be. */
    private final AtomicInteger outOfBatchCalls = new AtomicInteger();
    private volatile boolean batchOpen;
    private final AtomicInteger readersOpened = new AtomicInteger();
    private final AtomicLong changesRead = new AtomicLong();
    private final AtomicLong readsAtEnd = new AtomicLong();
    private volatile int published;
    private volatile long lastRevision;
    private volatile long durableRevision;
    private volatile long compactRevision;
    private volatile long firstRevision = 1;
    private volatile boolean failAppends;
    private volatile int failReadAt = -1;
    private volatile RuntimeException readFailure;
    private volatile int invalidReadAt = -1;
    private volatile boolean errorAppends;
    private volatile boolean errorSizing;
    private volatile long maxRevisionBytes = Long.MAX_VALUE;
    private volatile boolean failFlushes;
    private volatile CountDownLatch flushGate;
    private volatile CountDownLatch appendGate;
    private volatile LongSupplier visibleRevision = () -> Long.MAX_VALUE;
    private final List<SnapshotKey> snapshot = new ArrayList<>();
    private volatile long snapshotRevision;

    /**
     * @param capacity the most changes it holds.
     * @param sync     whether flush is what makes revisions durable.
     */
    public InMemoryJournal(final int capacity, final boolean sync)
    {
        changes = new Change[capacity];
        this.sync = sync;
    }

    /**
     * From now on a reader throws {@code failure} instead of returning the change at
     * {@code position} (counted from the journal's first change), as a log that fails to decode does.
     */
    public void failReadsAt(final int position, final RuntimeException failure)
    {
        readFailure = failure;
        failReadAt = position;
    }

    /**
     * From now on a reader returns the put at {@code position} with version 0, which the index
     * refuses to restore.
     */
    public void invalidVersionAt(final int position)
    {
        invalidReadAt = position;
    }

    /** From now on every append throws, as a full disk would. */
    public void failAppends()
    {
        failAppends = true;
    }

    /**
     * From now on every append throws an {@link Error}, as a write to a mapped page that the file
     * system cannot back does (the JVM turns that SIGBUS into an {@link InternalError}).
     */
    public void failAppendsWithError()
    {
        errorAppends = true;
    }

    /**
     * Caps a revision's size, as a log's per-revision limit does, so that the writer measures
     * multi-change writes with {@link #changeBytes}. Call before an engine opens this journal.
     *
     * @param bytes the cap.
     */
    public void capRevisionsAt(final long bytes)
    {
        maxRevisionBytes = bytes;
    }

    /**
     * From now on measuring a change throws an {@link Error} on the writer thread, which calls it
     * while building a capped revision: the writer's own work failing, as a bug would.
     */
    public void failSizingWithError()
    {
        errorSizing = true;
    }

    /** From now on every flush throws, as an I/O error while forcing pages would. */
    public void failFlushes()
    {
        failFlushes = true;
    }

    /** Works again, as after space was freed: a new engine may reopen it. */
    public void heal()
    {
        failAppends = false;
        errorAppends = false;
        failFlushes = false;
        visibleRevision = () -> Long.MAX_VALUE;
    }

    /** From now on a flush waits until {@link #releaseFlushes()}: a slow disk. */
    public void holdFlushes()
    {
        flushGate = new CountDownLatch(1);
    }

    /** Lets held and later flushes go. */
    public void releaseFlushes()
    {
        final CountDownLatch gate = flushGate;
        flushGate = null;
        if (gate != null)
        {
            gate.countDown();
        }
    }

    /**
     * From now on an append waits until {@link #releaseAppends()}: the journal thread falls behind the
     * writer, as an ASYNC journal does while it naps or its disk stalls.
     */
    public void holdAppends()
    {
        appendGate = new CountDownLatch(1);
    }

    /** Lets held and later appends go. */
    public void releaseAppends()
    {
        final CountDownLatch gate = appendGate;
        appendGate = null;
        if (gate != null)
        {
            gate.countDown();
        }
    }

    /**
     * @return how many times the writer flushed.
     */
    public int flushes()
    {
        return flushes.get();
    }

    /**
     * @return how many batches the journal stage opened.
     */
    public int batches()
    {
        return batches.get();
    }

    /**
     * @return how many appends came outside a batch, plus flushes and batch opens inside one.
     */
    public int outOfBatchCalls()
    {
        return outOfBatchCalls.get();
    }

    /**
     * @return true while a batch is open.
     */
    public boolean batchOpen()
    {
        return batchOpen;
    }

    /**
     * @return the last revision a flush covered.
     */
    public long durableRevision()
    {
        return durableRevision;
    }

    /**
     * From now on an engine that opens this journal loads a snapshot at {@code revision} holding
     * the keys given with {@link #snapshotHolds}, as if a snapshot file had been written.
     *
     * @param revision the snapshot's revision.
     */
    public void snapshotAt(final long revision)
    {
        snapshotRevision = revision;
    }

    /**
     * Adds a key to the snapshot an opening engine loads (see {@link #snapshotAt}).
     *
     * @param key            the key.
     * @param value          its value.
     * @param createRevision its create revision.
     * @param modRevision    its mod revision.
     * @param version        its version.
     */
    public void snapshotHolds(final String key, final String value, final long createRevision, final long modRevision,
        final long version)
    {
        snapshot.add(new SnapshotKey(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8),
            createRevision, modRevision, version));
    }

    /**
     * Pretends retention dropped every revision before {@code revision}.
     *
     * @param revision the new first revision.
     */
    public void dropBefore(final long revision)
    {
        firstRevision = revision;
    }

    @Override
    public long lastRevision()
    {
        return lastRevision;
    }

    @Override
    public long firstRevision()
    {
        return firstRevision;
    }

    @Override
    public void beginBatch()
    {
        if (batchOpen)
        {
            outOfBatchCalls.incrementAndGet();
        }
        batchOpen = true;
        batches.incrementAndGet();
    }

    @Override
    public void endBatch()
    {
        batchOpen = false;
    }

    @Override
    public void appendRevision(final long revision, final long timestampMillis, final ChangeRecord record)
    {
        if (!batchOpen)
        {
            outOfBatchCalls.incrementAndGet();
        }
        awaitGate(appendGate);
        if (revision != lastRevision + 1)
        {
            throw new IllegalStateException("revision " + revision + " after " + lastRevision);
        }
        if (failAppends)
        {
            throw new IllegalStateException("no space left on device (simulated)");
        }
        if (errorAppends)
        {
            throw new InternalError("a fault occurred in an unsafe memory access operation (simulated)");
        }
        int appended = published;
        record.rewind();
        while (record.next())
        {
            final boolean put = record.type() == EventType.PUT;
            changes[appended++] = new Change(revision, timestampMillis, record.type(),
                copy(record.key(), 0, record.keyLength()),
                put ? copy(record.value(), 0, record.valueLength()) : new byte[0],
                record.createRevision(), record.version(),
                copy(record.prevValue(), 0, record.prevValueLength()),
                record.prevCreateRevision(), record.prevModRevision(), record.prevVersion());
        }
        lastRevision = revision;
        published = appended;
    }

    @Override
    public void flush()
    {
        if (batchOpen)
        {
            outOfBatchCalls.incrementAndGet();
        }
        awaitGate(flushGate);
        if (failFlushes)
        {
            throw new IllegalStateException("I/O error while forcing the log (simulated)");
        }
        flushes.incrementAndGet();
        durableRevision = lastRevision;
    }

    /** Records nothing, but fails as an append does after {@link #failAppendsWithError()}. */
    @Override
    public void recordLeaseGrant(final long id, final long ttlSeconds)
    {
        if (errorAppends)
        {
            throw new InternalError("a fault occurred in an unsafe memory access operation (simulated)");
        }
    }

    @Override
    public long maxRevisionBytes()
    {
        return maxRevisionBytes;
    }

    @Override
    public long changeBytes(final int keyLength, final int valueLength, final int prevValueLength)
    {
        if (errorSizing)
        {
            throw new InternalError("measuring a change failed (simulated)");
        }
        return Journal.super.changeBytes(keyLength, valueLength, prevValueLength);
    }

    @Override
    public boolean isSync()
    {
        return sync;
    }

    @Override
    public void limitReadersTo(final LongSupplier visibleRevision)
    {
        this.visibleRevision = visibleRevision;
    }

    @Override
    public long snapshotRevision()
    {
        return snapshotRevision;
    }

    @Override
    public long loadSnapshot(final SnapshotSink into)
    {
        for (final SnapshotKey entry : snapshot)
        {
            into.entry(new UnsafeBuffer(entry.key), 0, entry.key.length, new UnsafeBuffer(entry.value), 0, entry.value.length,
                entry.createRevision, entry.modRevision, entry.version);
        }
        return snapshotRevision;
    }

    private record SnapshotKey(byte[] key, byte[] value, long createRevision, long modRevision, long version)
    {
    }

    @Override
    public void compact(final long revision)
    {
        compactRevision = revision;
    }

    @Override
    public long compactRevision()
    {
        return compactRevision;
    }

    @Override
    public HistoryReader newReader()
    {
        readersOpened.incrementAndGet();
        return new Reader();
    }

    /**
     * @return how many readers were opened so far: one per catch-up that needed the journal.
     */
    public int readersOpened()
    {
        return readersOpened.get();
    }

    /**
     * @return how many changes its readers returned so far, all readers together.
     */
    public long changesRead()
    {
        return changesRead.get();
    }

    /**
     * @return how many times one of its readers found nothing more to return, all readers together.
     */
    public long readsAtEnd()
    {
        return readsAtEnd.get();
    }

    @Override
    public void close()
    {
    }

    private static void awaitGate(final CountDownLatch gate)
    {
        if (gate != null)
        {
            try
            {
                gate.await(30, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private final class Reader implements HistoryReader
    {
        private final UnsafeBuffer key = new UnsafeBuffer(new byte[0]);
        private final UnsafeBuffer value = new UnsafeBuffer(new byte[0]);
        private final UnsafeBuffer prevValue = new UnsafeBuffer(new byte[0]);
        private int position;
        private long last;

        @Override
        public boolean seek(final long revision)
        {
            if (revision < firstRevision)
            {
                return false;
            }
            final int end = published;
            position = 0;
            while (position < end && changes[position].revision < revision)
            {
                position++;
            }
            return true;
        }

        @Override
        public boolean next(final EventRecord into)
        {
            if (position >= published || changes[position].revision > visibleRevision.getAsLong())
            {
                readsAtEnd.incrementAndGet();
                return false;
            }
            if (position == failReadAt)
            {
                throw readFailure;
            }
            final long version = position == invalidReadAt ? 0 : changes[position].version;
            final Change change = changes[position++];
            changesRead.incrementAndGet();
            key.wrap(change.key);
            value.wrap(change.value);
            prevValue.wrap(change.prevValue);
            into.set(change.revision, change.type, key, 0, change.key.length, value, 0, change.value.length,
                change.createRevision, version, prevValue, 0, change.prevValue.length,
                change.prevCreateRevision, change.prevModRevision, change.prevVersion, change.timestampMillis);
            last = change.revision;
            return true;
        }

        @Override
        public long lastRevision()
        {
            return last;
        }

        @Override
        public void close()
        {
        }
    }

    private static final class Change
    {
        final long revision;
        final long timestampMillis;
        final EventType type;
        final byte[] key;
        final byte[] value;
        final long createRevision;
        final long version;
        final byte[] prevValue;
        final long prevCreateRevision;
        final long prevModRevision;
        final long prevVersion;

        Change(
            final long revision, final long timestampMillis, final EventType type, final byte[] key, final byte[] value,
            final long createRevision, final long version, final byte[] prevValue,
            final long prevCreateRevision, final long prevModRevision, final long prevVersion)
        {
            this.revision = revision;
            this.timestampMillis = timestampMillis;
            this.type = type;
            this.key = key;
            this.value = value;
            this.createRevision = createRevision;
            this.version = version;
            this.prevValue = prevValue;
            this.prevCreateRevision = prevCreateRevision;
            this.prevModRevision = prevModRevision;
            this.prevVersion = prevVersion;
        }
    }
}
