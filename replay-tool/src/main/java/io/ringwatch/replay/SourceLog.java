package io.ringwatch.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import io.ringwatch.persistence.LogCompactedException;
import io.ringwatch.persistence.LogCorruptedException;
import io.ringwatch.persistence.LogDirectoryException;
import io.ringwatch.persistence.LogFormatException;
import io.ringwatch.persistence.LogReader;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.RevisionLogException;
import io.ringwatch.persistence.RevisionRecord;

/**
 * A revision log opened read-only for the tool: the persistence module's errors turned into the
 * tool's typed ones, revision options checked against what the log holds, and an in-order walk
 * that insists on contiguous revisions. Nothing on disk is changed (a torn tail is skipped, not
 * repaired). One command thread; allocates a reader and a record per walk.
 */
final class SourceLog implements AutoCloseable
{
    private final Path directory;
    private final RevisionLog log;

    private SourceLog(final Path directory, final RevisionLog log)
    {
        this.directory = directory;
        this.log = log;
    }

    /**
     * Opens the log in {@code directory} read-only.
     *
     * @param directory the data directory.
     * @return the open log; close it when done.
     * @throws LogUnavailableException if the directory is missing, not a log, or of a newer format.
     * @throws CorruptLogException     if its metadata or queue fails a check.
     */
    static SourceLog open(final Path directory)
    {
        if (!Files.exists(directory))
        {
            throw new LogUnavailableException(directory + " does not exist");
        }
        if (!Files.isDirectory(directory))
        {
            throw new LogUnavailableException(directory + " is not a directory");
        }
        try
        {
            return new SourceLog(directory, RevisionLog.openReadOnly(directory));
        }
        catch (final LogDirectoryException ex)
        {
            throw new LogUnavailableException("not a RingWatch log: " + ex.getMessage(), ex);
        }
        catch (final LogFormatException ex)
        {
            throw new LogUnavailableException(ex.getMessage(), ex);
        }
        catch (final RevisionLogException ex)
        {
            throw new CorruptLogException(ex.getMessage(), ex);
        }
    }

    /**
     * The data directory.
     *
     * @return the directory this log was opened from.
     */
    Path directory()
    {
        return directory;
    }

    /**
     * The oldest revision retained.
     *
     * @return the first revision, 0 for an empty log.
     */
    long firstRevision()
    {
        return log.firstRevision();
    }

    /**
     * The newest revision.
     *
     * @return the last revision, 0 for an empty log.
     */
    long lastRevision()
    {
        return log.lastRevision();
    }

    /**
     * The compaction point recorded in the metadata.
     *
     * @return the compact revision, 0 if never compacted.
     */
    long compactRevision()
    {
        return log.compactRevision();
    }

    /**
     * The newest committed snapshot's revision recorded in the metadata.
     *
     * @return the snapshot revision, 0 if none.
     */
    long snapshotRevision()
    {
        return log.snapshotRevision();
    }

    /**
     * Whether the log ends in an excerpt still marked not-complete (see
     * {@link RevisionLog#endsInIncompleteExcerpt()}).
     *
     * @throws CorruptLogException if the end of the log cannot be read.
     */
    boolean endsInIncompleteExcerpt()
    {
        try
        {
            return log.endsInIncompleteExcerpt();
        }
        catch (final RevisionLogException ex)
        {
            throw new CorruptLogException(ex.getMessage(), ex);
        }
    }

    /** What list and verify say about an incomplete last excerpt. */
    static final String INCOMPLETE_TAIL = "incomplete last excerpt: a writer died inside it (the next engine open drops " +
        "it, it was never acknowledged) or is writing it now";

    /**
     * Resolves {@code --from} / {@code --to} against the log: absent means the log's first / last.
     *
     * @param from the first revision asked for, or null.
     * @param to   the last revision asked for, or null.
     * @return the span; empty for an empty log asked for nothing in particular.
     * @throws RevisionOutOfRangeException if a revision is not positive, lies outside the log, or
     *                                     {@code from > to}.
     */
    RevisionSpan span(final Long from, final Long to)
    {
        requirePositive("--from", from);
        requirePositive("--to", to);
        final long last = log.lastRevision();
        if (last == 0)
        {
            if (from != null || to != null)
            {
                throw new RevisionOutOfRangeException(directory + " holds no revision yet");
            }
            return new RevisionSpan(1, 0);
        }
        final long first = from == null ? log.firstRevision() : requireHeld("--from", from);
        final long end = to == null ? last : requireHeld("--to", to);
        if (first > end)
        {
            throw new RevisionOutOfRangeException("--from " + first + " is after --to " + end);
        }
        return new RevisionSpan(first, end);
    }

    /**
     * Checks that {@code revision} is positive and held by the log.
     *
     * @param option   the option's name, for the message.
     * @param revision the revision.
     * @return the revision.
     * @throws RevisionOutOfRangeException if it is not positive or outside the log.
     */
    long requireHeld(final String option, final long revision)
    {
        requirePositive(option, revision);
        final long last = log.lastRevision();
        if (revision > last)
        {
            throw new RevisionOutOfRangeException(option + " " + revision + " is beyond the log's last revision " + last);
        }
        if (revision < log.firstRevision())
        {
            throw new RevisionOutOfRangeException(option + " " + revision + " is before the log's first revision " +
                log.firstRevision() + " (retention removed older revisions)");
        }
        return revision;
    }

    /**
     * Checks that a revision option, when given, is positive.
     *
     * @param option   the option's name, for the message.
     * @param revision the value, or null when absent.
     * @throws RevisionOutOfRangeException if it is zero or negative.
     */
    static void requirePositive(final String option, final Long revision)
    {
        if (revision != null && revision <= 0)
        {
            throw new RevisionOutOfRangeException(option + " must be a positive revision, got " + revision);
        }
    }

    /**
     * Hands every revision of {@code span} to {@code visitor}, in order, advancing {@code progress}.
     * Revisions a SKIP excerpt says never existed (an unclean reopen of an ASYNC log) are stepped
     * over. The record is reused: the visitor must copy what it keeps.
     *
     * @param span     the revisions, all held by the log.
     * @param visitor  called once per revision.
     * @param progress told how many revisions of the span are done.
     * @throws CorruptLogException if an excerpt fails its check or revisions are not contiguous.
     */
    void read(final RevisionSpan span, final Consumer<RevisionRecord> visitor, final Progress progress)
    {
        read(span, visitor, progress, 0);
    }

    /**
     * As {@link #read(RevisionSpan, Consumer, Progress)}, for a walk that is one part of a longer
     * one: {@code progress} is told {@code progressBase} plus the revisions of this span done.
     *
     * @param span         the revisions, all held by the log.
     * @param visitor      called once per revision.
     * @param progress     the bar of the whole walk.
     * @param progressBase revisions of the whole walk done before this span.
     * @throws CorruptLogException        if an excerpt fails its check or revisions are not contiguous
     *                                     (a cycle file missing from the middle of the log).
     * @throws RevisionOutOfRangeException if the writer of a live log deleted the next revisions
     *                                     (retention) while this walk read an older file, or the
     *                                     span's first revision before the walk reached it.
     */
    void read(final RevisionSpan span, final Consumer<RevisionRecord> visitor, final Progress progress, final long progressBase)
    {
        if (span.count() == 0)
        {
            return;
        }
        long expected = span.from();
        try (LogReader reader = log.reader())
        {
            if (!reader.seek(expected))
            {
                if (expected < firstRevisionNow())
                {
                    throw new RevisionOutOfRangeException("the log's writer deleted revision " + expected +
                        " (retention) before this command read it; the log now starts at " + firstRevisionNow());
                }
                throw new CorruptLogException("revision " + expected + " cannot be found although the log reports " +
                    log.firstRevision() + ".." + log.lastRevision());
            }
            final RevisionRecord record = new RevisionRecord();
            while (expected <= span.to())
            {
                if (!reader.next(record))
                {
                    if (reader.skippedTo() >= span.to())
                    {
                        // The rest of the span was skipped (an unclean reopen's SKIP): those revisions never existed.
                        break;
                    }
                    throw new CorruptLogException("the log ends after revision " + (expected - 1) +
                        " but reports " + log.lastRevision() + " as its last");
                }
                if (record.revision() > expected && reader.skippedTo() >= expected && reader.skippedTo() + 1 == record.revision())
                {
                    expected = record.revision();
                    if (expected > span.to())
                    {
                        break;
                    }
                }
                if (record.revision() != expected)
                {
                    throw new CorruptLogException("revision " + record.revision() + " follows revision " + (expected - 1));
                }
                visitor.accept(record);
                progress.advance(progressBase + expected - span.from() + 1);
                expected++;
            }
        }
        catch (final LogCompactedException ex)
        {
            if (firstRevisionNow() < expected)
            {
                // The revision read last is still held: not retention, a cycle file missing from the middle.
                throw new CorruptLogException("revision " + ex.revision() + " is missing: the log goes on after revision " +
                    (ex.revision() - 1) + " at a later one while the file it is in is still there (a cycle file removed?)", ex);
            }
            // A live log: its writer's retention deleted the files after the one being read.
            throw new RevisionOutOfRangeException("the log's writer deleted revisions this command was reading: " +
                ex.getMessage(), ex);
        }
        catch (final LogCorruptedException ex)
        {
            throw new CorruptLogException(ex.getMessage() + " (after revision " + (expected - 1) + ")", ex);
        }
        catch (final LogFormatException ex)
        {
            throw new LogUnavailableException(ex.getMessage(), ex);
        }
    }

    /**
     * The first revision the log holds now (a live writer's retention moves it after the open).
     *
     * @throws CorruptLogException if the first excerpt cannot be read.
     */
    private long firstRevisionNow()
    {
        try
        {
            return log.readFirstRevision();
        }
        catch (final RevisionLogException ex)
        {
            throw new CorruptLogException(ex.getMessage(), ex);
        }
    }

    /**
     * The timestamp of one revision; for a revision a SKIP says never existed, when the skip was
     * written.
     *
     * @param revision a revision the log accounts for (held or skipped).
     * @return its timestamp, epoch nanoseconds.
     * @throws CorruptLogException        if it cannot be read.
     * @throws RevisionOutOfRangeException if a live writer's retention deleted it since the open.
     */
    long timestampOf(final long revision)
    {
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            if (!reader.seek(revision))
            {
                if (revision < firstRevisionNow())
                {
                    throw new RevisionOutOfRangeException("the log's writer deleted revision " + revision +
                        " (retention) before this command read it; the log now starts at " + firstRevisionNow());
                }
                throw new CorruptLogException("revision " + revision + " cannot be found although the log reports " +
                    log.firstRevision() + ".." + log.lastRevision());
            }
            if (reader.next(record) && record.revision() == revision)
            {
                return record.timestampNanos();
            }
            if (reader.skippedFrom() <= revision && revision <= reader.skippedTo())
            {
                return reader.skippedAtNanos();
            }
            throw new CorruptLogException("revision " + revision + " cannot be read although the log reports " +
                log.firstRevision() + ".." + log.lastRevision());
        }
        catch (final LogCorruptedException ex)
        {
            throw new CorruptLogException(ex.getMessage(), ex);
        }
        catch (final LogFormatException ex)
        {
            throw new LogUnavailableException(ex.getMessage(), ex);
        }
    }

    /**
     * Closes the log. Idempotent.
     */
    @Override
    public void close()
    {
        log.close();
    }
}
