package io.ringwatch.replay;

import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.ringwatch.persistence.LogDirectoryException;
import io.ringwatch.persistence.LogFormatException;
import io.ringwatch.persistence.SnapshotCorruptedException;
import io.ringwatch.persistence.SnapshotEntry;
import io.ringwatch.persistence.SnapshotReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code verify <dir>}: walks the whole retained log (every excerpt's CRC and layout, contiguous
 * revisions up to the last one the log reports), reads every snapshot through, and checks that
 * the log can be recovered (it starts at revision 1 or a snapshot covers what retention removed).
 * Exit 0 and one summary line when sound; else {@link CorruptLogException} with the first problem.
 * On a live log: revisions the writer's retention deletes ahead of the walk end it with
 * {@link RevisionOutOfRangeException} (exit 4, not corrupt); a snapshot the writer deleted after the
 * listing (superseded by a newer one) is named as such, not as a problem.
 * Runs on the command's thread; allocates a record and an entry.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Checks every excerpt (CRC, layout, contiguous revisions) and every snapshot; exit 0 when sound.")
final class VerifyCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The data directory.")
    Path directory;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
        description = "text (an OK line) or json (one object); a problem is always one line on stderr.")
    OutputFormat format;

    @Mixin
    ProgressOption progress;

    /**
     * Verifies the log.
     *
     * @return {@link ExitCodes#OK} when sound.
     * @throws CorruptLogException with the first problem otherwise.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        try (SourceLog log = SourceLog.open(directory))
        {
            final RevisionSpan span = log.span(null, null);
            final Progress bar = progress.start(spec.commandLine().getErr(), "verify", span.count());
            final long[] held = new long[1];
            try
            {
                log.read(span, record -> held[0]++, bar);
            }
            finally
            {
                bar.finish();
            }
            final List<Long> snapshots = SnapshotCatalog.revisions(directory);
            final List<Long> gone = new ArrayList<>();
            for (final long snapshot : snapshots)
            {
                if (!checkSnapshot(directory, snapshot))
                {
                    gone.add(snapshot);
                }
            }
            // Recoverability is judged on the listing, which matches the log's ends read at the open.
            checkRecoverable(log, snapshots);
            final List<Long> valid = new ArrayList<>(snapshots);
            valid.removeAll(gone);
            final boolean incomplete = log.endsInIncompleteExcerpt();
            if (format == OutputFormat.JSON)
            {
                out.println(new JsonLine()
                    .flag("ok", true)
                    .number("firstRevision", span.count() == 0 ? 0 : span.from())
                    .number("lastRevision", span.count() == 0 ? 0 : span.to())
                    .number("revisions", held[0])
                    .number("skipped", span.count() - held[0])
                    .numbers("snapshots", valid)
                    .numbers("snapshotsDeletedMeanwhile", gone)
                    .flag("incompleteTail", incomplete)
                    .end());
                out.flush();
                return ExitCodes.OK;
            }
            out.println("OK: " + (span.count() == 0 ? "no revisions" :
                "revisions " + span.from() + ".." + span.to() + " (" + held[0] + ") contiguous" +
                (held[0] == span.count() ? "" : " (" + (span.count() - held[0]) + " skipped after unclean closes)") +
                ", every CRC valid") +
                "; snapshots valid: " + valid +
                (gone.isEmpty() ? "" : " (" + gone + " deleted by the log's writer before verify read them)"));
            if (incomplete)
            {
                out.println("note: " + SourceLog.INCOMPLETE_TAIL);
            }
            out.flush();
        }
        return ExitCodes.OK;
    }

    /**
     * Reads the snapshot of {@code revision} through, checking every entry.
     *
     * @return false if the file is gone: a live writer deletes its older snapshots once a newer
     *         one is committed (they were whole when listed; recovery no longer needs them).
     * @throws CorruptLogException if the file fails a check.
     */
    static boolean checkSnapshot(final Path directory, final long revision)
    {
        final Path file = SnapshotCatalog.file(directory, revision);
        try (SnapshotReader reader = SnapshotReader.open(file))
        {
            if (reader.snapshotRevision() != revision)
            {
                throw new CorruptLogException("snapshot file of revision " + revision + " says it was taken at " +
                    reader.snapshotRevision());
            }
            final SnapshotEntry entry = new SnapshotEntry();
            while (reader.next(entry))
            {
                if (entry.createRevision() < 1 || entry.modRevision() < entry.createRevision() || entry.version() < 1)
                {
                    throw new CorruptLogException("snapshot " + revision + " holds a key with impossible metadata: create " +
                        entry.createRevision() + ", mod " + entry.modRevision() + ", version " + entry.version());
                }
            }
        }
        catch (final LogDirectoryException ex)
        {
            if (ex.getCause() instanceof NoSuchFileException)
            {
                return false;
            }
            throw new CorruptLogException(ex.getMessage(), ex);
        }
        catch (final SnapshotCorruptedException | LogFormatException ex)
        {
            throw new CorruptLogException(ex.getMessage(), ex);
        }
        return true;
    }

    private static void checkRecoverable(final SourceLog log, final List<Long> snapshots)
    {
        final long first = log.firstRevision();
        if (first <= 1)
        {
            return;
        }
        for (final long snapshot : snapshots)
        {
            if (snapshot >= first - 1)
            {
                return;
            }
        }
        throw new CorruptLogException("the log starts at revision " + first + " but no snapshot covers the revisions " +
            "before it (snapshots: " + snapshots + "): it cannot be recovered");
    }
}
