package io.ringwatch.persistence;

import static io.ringwatch.persistence.ExcerptLayout.CRC_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.FORMAT_VERSION;
import static io.ringwatch.persistence.ExcerptLayout.HEADER_LENGTH;
import static io.ringwatch.persistence.ExcerptLayout.KIND_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.KIND_REVISION;
import static io.ringwatch.persistence.ExcerptLayout.KIND_SKIP;
import static io.ringwatch.persistence.ExcerptLayout.KIND_VOID;
import static io.ringwatch.persistence.ExcerptLayout.REVISION_OFFSET;
import static io.ringwatch.persistence.ExcerptLayout.VERSION_OFFSET;
import static java.nio.ByteOrder.LITTLE_ENDIAN;

import java.util.NavigableSet;
import java.util.zip.CRC32C;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.io.IORuntimeException;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import org.agrona.ExpandableDirectByteBuffer;

/**
 * Reads revisions from the log in order, from any revision still retained, with its own Chronicle
 * tailer: many readers may exist, each on one thread at a time, and none ever slows the writer.
 * A reader that reaches the newest revision returns false from {@link #next(RevisionRecord)} and
 * sees later revisions on a later call.
 * <p>
 * Allocation: {@link #next(RevisionRecord)} allocates nothing in steady state (it copies the excerpt
 * into the record's buffer); {@link #seek(long)} allocates only when the set of cycle files changed
 * (it caches each file's first revision).
 * Errors: a stored excerpt that fails its CRC or layout check throws {@link LogCorruptedException}.
 * Retention: a reader inside a cycle file that retention deletes keeps its mapping and finishes the
 * file; if the files after it were deleted too, Chronicle's tailer moves on to the next file that
 * exists, so the reader checks that each excerpt starts right after the one before and throws
 * {@link LogCompactedException} instead of returning a later revision as the next one.
 * <p>
 * Skips: revisions a SKIP excerpt says will never exist (an unclean reopen of an ASYNC log,
 * {@link RevisionLog#skipTo}) are not returned; {@link #seek} to one of them positions the reader at
 * the first revision after them, and {@link #skippedTo()} tells what the reader stepped over.
 */
public final class LogReader implements AutoCloseable
{
    private final SingleChronicleQueue queue;
    /** Over a read-only queue, whose directory listing may name files deleted since it was written. */
    private final boolean readOnly;
    private final RollCycle rollCycle;
    private final ExcerptTailer tailer;
    private final CRC32C crc = new CRC32C();
    private static final long UNKNOWN = -1;

    private long[] cycles = new long[0];
    private long[] firstRevisions = new long[0];
    private int cycleCount;
    private int loadedFirst = Integer.MIN_VALUE;
    private int loadedLast = Integer.MIN_VALUE;
    private byte peekKind;
    private long peekRevision;
    /** The first revision the peeked excerpt accounts for: a SKIP's first skipped one, else its revision field. */
    private long peekFrom;
    private long skips;
    private long firstSkippedFrom;
    private long skippedFrom;
    private long skippedTo;
    private long skippedAtNanos;
    /** The revision the next excerpt must start at, 0 where not known (after a seek or a move to the start). */
    private long expectedNext;
    /** The cycle of the last revision or skip read: whether its file is still there tells retention from damage. */
    private int cycleRead;

    LogReader(final SingleChronicleQueue queue, final boolean readOnly)
    {
        this.queue = queue;
        this.readOnly = readOnly;
        this.rollCycle = queue.rollCycle();
        this.tailer = queue.createTailer();
        // A reader may be created on one thread and handed to another; it is still used by one at a time.
        this.tailer.singleThreadedCheckDisabled(true);
    }

    /**
     * Positions the reader so that the next {@link #next(RevisionRecord)} returns {@code revision},
     * or, for a revision a SKIP excerpt says will never exist, the first revision after the skip.
     * Cost: a binary search over the cycle files, then O(1) inside the file (revisions are contiguous,
     * one excerpt each), falling back to a binary search where a dropped excerpt breaks the arithmetic.
     * The reader's thread only.
     *
     * @param revision the revision to read next.
     * @return true if positioned; false if the log does not hold it (compacted away or not yet written),
     *         in which case the position is unspecified.
     * @throws IllegalArgumentException if {@code revision} is not positive.
     * @throws LogGapException          if the revision lies in a gap a cycle file missing from the
     *                                  middle of the log left.
     * @throws LogCorruptedException    if a queue file cannot be read (cut short or damaged).
     */
    public boolean seek(final long revision)
    {
        if (revision <= 0)
        {
            throw new IllegalArgumentException("revision must be positive: " + revision);
        }
        expectedNext = 0;
        try
        {
            return seekFrom(revision);
        }
        catch (final InternalError | AssertionError | IORuntimeException ex)
        {
            // A fault on a mapped page, a mapping the file system refused (Chronicle's
            // IORuntimeException where the file is shorter than its excerpts), or Chronicle's
            // assertions about the file behind it.
            throw new LogCorruptedException("Cannot seek to revision " + revision + " (queue file cut short?): " + ex, ex);
        }
    }

    private boolean seekFrom(final long revision)
    {
        loadCycles();
        int lo = 0;
        int hi = cycleCount - 1;
        int candidate = -1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (firstRevisionOf(mid) <= revision)
            {
                candidate = mid;
                lo = mid + 1;
            }
            else
            {
                hi = mid - 1;
            }
        }
        if (candidate < 0)
        {
            return false;
        }
        if (seekInCycle((int)cycles[candidate], revision) ||
            (candidate > 0 && seekInCycle((int)cycles[candidate - 1], revision)))
        {
            return true;
        }
        requireNoGapAfter(candidate, revision);
        return false;
    }

    /**
     * A revision not found although a later cycle file exists lies in a gap between the cycle
     * {@code i}, which is there, and the next one: the files between are missing from the middle.
     */
    private void requireNoGapAfter(final int i, final long revision)
    {
        if (i + 1 >= cycleCount)
        {
            return;
        }
        final long next = firstRevisionOf(i + 1);
        final long last = lastRevisionInCycle((int)cycles[i]);
        if (last >= 0 && revision > last && next > last + 1 && next != Long.MAX_VALUE)
        {
            throw new LogGapException(last + 1, next - 1, "the log in " + queue.file().getParent());
        }
    }

    /**
     * Checks that every cycle file goes on right after the revision the file before it ends at,
     * where a file could be missing: only between files whose cycle numbers are not consecutive (a
     * file deleted from the middle always leaves such a pair; a log written in every cycle has
     * none, so the check maps no file), by reading the last excerpt of the one and the first of the
     * other. The reader's thread only; leaves the reader's position unspecified.
     *
     * @throws LogGapException if revisions are missing between two files (a file deleted from the
     *                         middle of the log).
     */
    void requireContiguousCycles()
    {
        loadCycles();
        for (int i = 1; i < cycleCount; i++)
        {
            if (cycles[i] == cycles[i - 1] + 1)
            {
                continue;
            }
            final long previousLast = lastRevisionInCycle((int)cycles[i - 1]);
            final long first = firstRevisionOf(i);
            if (previousLast > 0 && first != Long.MAX_VALUE && first > previousLast + 1)
            {
                throw new LogGapException(previousLast + 1, first - 1, "the log in " + queue.file().getParent());
            }
        }
        expectedNext = 0;
    }

    /**
     * Reads the next revision into {@code into}, skipping excerpts dropped as torn at open.
     * The reader's thread only; no allocation in steady state.
     *
     * @param into the record to fill; valid until the next call with it.
     * @return true if a revision was read, false if the reader is at the end of the log.
     * @throws LogCorruptedException if the excerpt fails its CRC or layout check.
     * @throws LogFormatException    if the excerpt was written by a newer format version.
     * @throws LogCompactedException if retention deleted the next revision while this reader read an
     *                               older file (the reader stays where it was).
     * @throws LogGapException       if the next revision is missing while the file of the one read
     *                               last is still there (a cycle file deleted from the middle).
     */
    public boolean next(final RevisionRecord into)
    {
        byte kind;
        do
        {
            kind = nextExcerpt(into);
        }
        while (kind == KIND_SKIP);
        return kind == KIND_REVISION;
    }

    /**
     * Reads the next revision or skip, stepping over VOID excerpts: for a skip, the record is left
     * as it was and {@link #skippedFrom()} and {@link #skippedTo()} name the skip.
     *
     * @return {@link ExcerptLayout#KIND_REVISION}, {@link ExcerptLayout#KIND_SKIP}, or 0 at the end.
     */
    byte nextExcerpt(final RevisionRecord into)
    {
        final ExpandableDirectByteBuffer buffer = into.buffer();
        while (true)
        {
            final int length;
            final long index;
            try (DocumentContext dc = tailer.readingDocument())
            {
                if (!dc.isPresent())
                {
                    return 0;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final long remaining = bytes.readRemaining();
                index = dc.index();
                if (remaining < HEADER_LENGTH || remaining > Integer.MAX_VALUE)
                {
                    throw new LogCorruptedException("Excerpt at queue index 0x" + Long.toHexString(index) +
                        " has impossible length " + remaining);
                }
                length = (int)remaining;
                buffer.checkLimit(length);
                bytes.unsafeRead(buffer.addressOffset(), length);
            }
            catch (final InternalError | AssertionError | IORuntimeException ex)
            {
                // A fault on a mapped page, or a mapping the file system refused: the file is
                // shorter than its excerpts (cut or damaged).
                throw new LogCorruptedException("Cannot read the excerpt at queue index 0x" +
                    Long.toHexString(tailer.index()) + " (queue file cut short?): " + ex, ex);
            }
            final byte kind = check(buffer, length, index);
            if (kind == KIND_REVISION)
            {
                final long revision = buffer.getLong(REVISION_OFFSET, LITTLE_ENDIAN);
                requireNext(revision, index);
                expectedNext = revision + 1;
                cycleRead = rollCycle.toCycle(index);
                into.index(length, index);
                return KIND_REVISION;
            }
            if (kind == KIND_SKIP)
            {
                requireNext(buffer.getLong(ExcerptLayout.SKIP_FROM_OFFSET, LITTLE_ENDIAN), index);
                skippedFrom = buffer.getLong(ExcerptLayout.SKIP_FROM_OFFSET, LITTLE_ENDIAN);
                skippedTo = buffer.getLong(REVISION_OFFSET, LITTLE_ENDIAN);
                skippedAtNanos = buffer.getLong(ExcerptLayout.TIMESTAMP_OFFSET, LITTLE_ENDIAN);
                expectedNext = skippedTo + 1;
                cycleRead = rollCycle.toCycle(index);
                if (skips++ == 0)
                {
                    firstSkippedFrom = skippedFrom;
                }
                return KIND_SKIP;
            }
        }
    }

    /**
     * Revisions are appended contiguously (a skip starts right after the revision before it), so an
     * excerpt that does not start at the expected revision lies beyond missing cycle files: deleted
     * under this reader by retention, which deletes oldest first, when the file of the revision read
     * last is gone too; else missing from the middle of the log (a {@link LogGapException}). The
     * tailer is put back on that excerpt: a later call fails the same way.
     */
    private void requireNext(final long from, final long index)
    {
        if (expectedNext != 0 && from != expectedNext)
        {
            tailer.moveToIndex(index);
            if (firstCycleOnDisk() <= cycleRead)
            {
                throw new LogGapException(expectedNext, from - 1, "the log in " + queue.file().getParent());
            }
            throw new LogCompactedException("revision " + expectedNext + " is no longer in the log (retention " +
                "deleted it while this reader read an older file; the next revision held is " + from + ")", expectedNext);
        }
    }

    /**
     * Checks version, CRC and kind of the excerpt copied into {@code buffer}.
     *
     * @return the excerpt's kind.
     */
    private byte check(final ExpandableDirectByteBuffer buffer, final int length, final long index)
    {
        final byte version = buffer.getByte(VERSION_OFFSET);
        if (version > FORMAT_VERSION)
        {
            throw new LogFormatException("Excerpt at queue index 0x" + Long.toHexString(index) + " has format version " +
                version + "; this code reads up to " + FORMAT_VERSION);
        }
        if (version == 1)
        {
            // Format 1 had no leases and a shorter change; reading it would need a second layout.
            throw new LogFormatException("Excerpt at queue index 0x" + Long.toHexString(index) +
                " has format version 1, written before leases; this code reads format " + FORMAT_VERSION +
                ": read or republish that log with a release before issue 15");
        }
        final int stored = buffer.getInt(CRC_OFFSET, LITTLE_ENDIAN);
        if (version < 1 || stored != ExcerptLayout.crc(crc, buffer, length))
        {
            throw new LogCorruptedException("Excerpt at queue index 0x" + Long.toHexString(index) +
                " fails its CRC check (revision field " + buffer.getLong(REVISION_OFFSET, LITTLE_ENDIAN) + ")");
        }
        final byte kind = buffer.getByte(KIND_OFFSET);
        if (kind != KIND_REVISION && kind != KIND_VOID && kind != KIND_SKIP)
        {
            throw new LogCorruptedException("Excerpt at queue index 0x" + Long.toHexString(index) + " has unknown kind " + kind);
        }
        if (kind == KIND_SKIP && (length != ExcerptLayout.SKIP_LENGTH ||
            buffer.getLong(ExcerptLayout.SKIP_FROM_OFFSET, LITTLE_ENDIAN) > buffer.getLong(REVISION_OFFSET, LITTLE_ENDIAN)))
        {
            throw new LogCorruptedException("Excerpt at queue index 0x" + Long.toHexString(index) + " is a malformed skip");
        }
        return kind;
    }

    /**
     * The queue index the next read would return, for tools and diagnostics. The reader's thread only.
     *
     * @return the Chronicle index of the next excerpt.
     */
    public long queueIndex()
    {
        return tailer.index();
    }

    /**
     * How many SKIP excerpts {@link #next} has stepped over so far. The reader's thread only.
     *
     * @return the count, 0 for a log never reopened after an unclean close.
     */
    public long skips()
    {
        return skips;
    }

    /**
     * The first revision of the newest skip {@link #next} stepped over. The reader's thread only.
     *
     * @return the revision, 0 if none.
     */
    public long skippedFrom()
    {
        return skippedFrom;
    }

    /**
     * The last revision of the newest skip {@link #next} stepped over: revisions up to it are
     * accounted for even where no revision follows the skip yet. The reader's thread only.
     *
     * @return the revision, 0 if none.
     */
    public long skippedTo()
    {
        return skippedTo;
    }

    /**
     * When the newest skip {@link #next} stepped over was written (the unclean reopen that made
     * its revisions never exist). The reader's thread only.
     *
     * @return epoch nanoseconds, 0 if none.
     */
    public long skippedAtNanos()
    {
        return skippedAtNanos;
    }

    /**
     * The first revision of the first skip {@link #next} stepped over since the reader was created
     * or last moved to the start. The reader's thread only.
     *
     * @return the revision, 0 if none.
     */
    long firstSkippedFrom()
    {
        return firstSkippedFrom;
    }

    /**
     * Moves to the start of the retained log and forgets the skips stepped over; where Chronicle's
     * directory listing still names a first cycle file retention deleted (a kill before it was
     * refreshed; a read-only queue cannot refresh it), to the first cycle file that exists. The
     * reader's thread only; no allocation over a writable queue (over a read-only one, a listing of
     * the queue directory).
     */
    public void toStart()
    {
        final int first = readOnly ? firstCycleOnDisk() : Integer.MAX_VALUE;
        if (first != Integer.MAX_VALUE && first != queue.firstCycle())
        {
            // Chronicle's directory listing names a first cycle file that is gone: a kill between
            // retention's deletions and the listing's refresh. A read-only queue cannot refresh
            // it (its tailer's toStart fails, or a fresh tailer reads nothing at all), so start at
            // the first cycle file that exists; the listing stays as it was.
            tailer.moveToCycle(first);
        }
        else
        {
            tailer.toStart();
        }
        expectedNext = 0;
        skips = 0;
        firstSkippedFrom = 0;
        skippedFrom = 0;
        skippedTo = 0;
        skippedAtNanos = 0;
    }

    /**
     * Releases the tailer. The reader's thread; idempotent.
     */
    @Override
    public void close()
    {
        tailer.close();
    }

    /**
     * The revision field of the newest excerpt of {@code cycle}, or -1 if it holds none.
     */
    long lastRevisionInCycle(final int cycle)
    {
        expectedNext = 0;
        final long excerpts = tailer.excerptsInCycle(cycle);
        if (excerpts <= 0 || !peek(rollCycle.toIndex(cycle, excerpts - 1)))
        {
            return -1;
        }
        return peekRevision;
    }

    /**
     * The revision field of the newest excerpt in the log (for a dropped excerpt: the valid revision
     * before it), or -1 if the log is empty. Leaves the reader at the end.
     */
    long lastRevisionField()
    {
        expectedNext = 0;
        tailer.direction(TailerDirection.BACKWARD).toEnd();
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent())
            {
                return -1;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            if (bytes.readRemaining() < HEADER_LENGTH)
            {
                throw new LogCorruptedException("The last excerpt, at queue index 0x" + Long.toHexString(dc.index()) +
                    ", is too short");
            }
            return bytes.readLong(bytes.readPosition() + REVISION_OFFSET);
        }
        finally
        {
            tailer.direction(TailerDirection.FORWARD).toEnd();
        }
    }

    private boolean seekInCycle(final int cycle, final long revision)
    {
        final long excerpts = tailer.excerptsInCycle(cycle);
        if (excerpts <= 0 || !peek(rollCycle.toIndex(cycle, 0)))
        {
            return false;
        }
        final long guess = revision - peekRevision;
        if (guess >= 0 && guess < excerpts && isRevisionAt(rollCycle.toIndex(cycle, guess), revision))
        {
            return tailer.moveToIndex(rollCycle.toIndex(cycle, guess));
        }
        long lo = 0;
        long hi = excerpts - 1;
        long first = excerpts;
        while (lo <= hi)
        {
            final long mid = (lo + hi) >>> 1;
            if (peek(rollCycle.toIndex(cycle, mid)) && peekRevision >= revision)
            {
                first = mid;
                hi = mid - 1;
            }
            else
            {
                lo = mid + 1;
            }
        }
        for (long seq = first; seq < excerpts; seq++)
        {
            final long index = rollCycle.toIndex(cycle, seq);
            if (!peek(index))
            {
                return false;
            }
            if (peekKind == KIND_SKIP && peekFrom <= revision && revision <= peekRevision)
            {
                // A revision that will never exist: the next read steps over the skip.
                return tailer.moveToIndex(index);
            }
            if (peekRevision > revision)
            {
                return false;
            }
            if (peekKind == KIND_REVISION && peekRevision == revision)
            {
                return tailer.moveToIndex(index);
            }
        }
        return false;
    }

    private boolean isRevisionAt(final long index, final long revision)
    {
        return peek(index) && peekKind == KIND_REVISION && peekRevision == revision;
    }

    /**
     * Reads the kind and revision of the excerpt at {@code index} without consuming it.
     */
    private boolean peek(final long index)
    {
        if (!tailer.moveToIndex(index))
        {
            return false;
        }
        try (DocumentContext dc = tailer.readingDocument())
        {
            if (!dc.isPresent())
            {
                return false;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            if (bytes.readRemaining() < HEADER_LENGTH)
            {
                throw new LogCorruptedException("Excerpt at queue index 0x" + Long.toHexString(index) + " is too short");
            }
            final long start = bytes.readPosition();
            peekKind = bytes.readByte(start + KIND_OFFSET);
            peekRevision = bytes.readLong(start + REVISION_OFFSET);
            peekFrom = peekKind == KIND_SKIP && bytes.readRemaining() >= ExcerptLayout.SKIP_LENGTH ?
                bytes.readLong(start + ExcerptLayout.SKIP_FROM_OFFSET) : peekRevision;
            dc.rollbackOnClose();
            return true;
        }
    }

    /**
     * The first revision the first excerpt of cycle number {@code i} accounts for (its revision
     * field, or a skip's first skipped revision); cached, because a cycle's first excerpt never
     * changes once written and reaching it maps the file.
     */
    private long firstRevisionOf(final int i)
    {
        if (firstRevisions[i] == UNKNOWN)
        {
            if (!peek(rollCycle.toIndex((int)cycles[i], 0)))
            {
                return Long.MAX_VALUE;
            }
            firstRevisions[i] = peekFrom;
        }
        return firstRevisions[i];
    }

    /**
     * The first cycle whose file exists, read from the queue directory rather than Chronicle's
     * listing (which a kill during retention can leave naming deleted files).
     *
     * @return the cycle, {@link Integer#MAX_VALUE} if there is none.
     */
    private int firstCycleOnDisk()
    {
        final long[] cycles = CycleFilesOnDisk.cycles(queue);
        return cycles.length == 0 ? Integer.MAX_VALUE : (int)cycles[0];
    }

    /**
     * Refreshes the list of cycle files when the queue's first or last cycle changed, keeping the
     * cached first revisions of cycles still present.
     */
    private void loadCycles()
    {
        final int first = queue.firstCycle();
        final int last = queue.lastCycle();
        if (first == loadedFirst && last == loadedLast)
        {
            return;
        }
        loadedFirst = first;
        loadedLast = last;
        if (first == Integer.MAX_VALUE || last < first)
        {
            cycleCount = 0;
            return;
        }
        NavigableSet<Long> found;
        try
        {
            found = queue.listCyclesBetween(first, last);
        }
        catch (final IllegalStateException ex)
        {
            // The listing's first cycle file is gone (see toStart): list from the first one left.
            found = queue.listCyclesBetween(Math.min(firstCycleOnDisk(), last), last);
        }
        final long[] newCycles = new long[found.size()];
        final long[] newFirsts = new long[found.size()];
        int count = 0;
        int old = 0;
        for (final Long cycle : found)
        {
            while (old < cycleCount && cycles[old] < cycle)
            {
                old++;
            }
            newCycles[count] = cycle;
            newFirsts[count] = old < cycleCount && cycles[old] == cycle ? firstRevisions[old] : UNKNOWN;
            count++;
        }
        cycles = newCycles;
        firstRevisions = newFirsts;
        cycleCount = count;
    }
}
