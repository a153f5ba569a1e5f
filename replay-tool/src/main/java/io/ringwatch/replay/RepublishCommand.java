package io.ringwatch.replay;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.persistence.LeaseFile;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLogException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code republish <dir> --into <newdir>}: re-publishes history into a fresh persistent engine,
 * one transaction per revision, at the original pace, N times faster or as fast as it goes.
 * From a later revision than 1, the state just before it goes in first as a base (so the target's
 * state equals the source's at every re-published revision, under shifted revision numbers).
 * The target is a new history numbered contiguously: revisions a SKIP in the source says never
 * existed (an unclean reopen) have no counterpart, so later source revisions get lower numbers.
 * Leases go too ({@link LeaseReplay}): same ids and TTLs, each put's lease, each end re-made by a
 * revoke; a put whose lease grant the lease log no longer records is refused (exit code 5).
 * Runs on the command's thread; the engine brings its own threads and closes them at the end.
 */
@Command(name = "republish", mixinStandardHelpOptions = true,
    description = "Re-publishes revisions --from..--to into a fresh persistent engine in --into, one txn per revision.")
final class RepublishCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The source data directory.")
    Path directory;

    @Option(names = "--into", required = true, paramLabel = "<newdir>",
        description = "The target data directory: missing or empty.")
    Path into;

    @Option(names = "--from", paramLabel = "A", description = "First revision (default: the log's first).")
    Long from;

    @Option(names = "--to", paramLabel = "B", description = "Last revision (default: the log's last).")
    Long to;

    @Option(names = "--pace", defaultValue = "max", paramLabel = "original|Nx|max",
        description = "original (sleep by timestamp deltas), Nx (N times faster) or max (no waiting; the default).")
    Pace pace;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
        description = "text (a summary) or json (one object).")
    OutputFormat format;

    @Mixin
    ProgressOption progress;

    /**
     * Re-publishes and prints a summary.
     *
     * @return {@link ExitCodes#OK}.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        try (SourceLog log = SourceLog.open(directory))
        {
            final RevisionSpan span = log.span(from, to);
            if (span.count() == 0)
            {
                throw new RevisionOutOfRangeException(directory + " holds no revision to re-publish");
            }
            final boolean created = requireFreshTarget();
            try
            {
                return republish(log, span, out, err);
            }
            catch (final RuntimeException | Error ex)
            {
                removeWhatWasBuilt(created);
                throw ex;
            }
        }
    }

    /**
     * Opens the target engine, writes the base state and the span into it, and prints the summary.
     */
    private int republish(final SourceLog log, final RevisionSpan span, final PrintWriter out, final PrintWriter err)
    {
        final Collection<KeyState> base = span.from() == 1 ? List.of() : baseState(log, span.from(), err);
        final long started = System.nanoTime();
        final Republisher republisher;
        final long targetLast;
        try (RingWatch engine = openTarget())
        {
            final LeaseReplay leases = new LeaseReplay(engine.leases(), LeaseFile.read(directory), span.from(), System::nanoTime);
            republisher = new Republisher(engine, new Pacer(pace), System::nanoTime, leases);
            if (span.from() > 1)
            {
                leases.grantBase(span.from() - 1);
            }
            republisher.publishBase(base);
            final Progress bar = progress.start(err, "republish", span.count());
            try
            {
                log.read(span, republisher::publish, bar);
                republisher.finishLeases(span.to());
                republisher.drain();
            }
            finally
            {
                bar.finish();
            }
            targetLast = engine.currentRevision();
        }
        final double seconds = (System.nanoTime() - started) / 1e9;
        final double rate = republisher.revisions() / Math.max(seconds, 1e-9);
        if (format == OutputFormat.JSON)
        {
            out.println(new JsonLine()
                .string("source", directory.toString())
                .number("fromRevision", span.from())
                .number("toRevision", span.to())
                .number("revisions", republisher.revisions())
                .number("changes", republisher.changes())
                .string("into", into.toString())
                .number("targetFirstRevision", 1)
                .number("targetLastRevision", targetLast)
                .number("baseKeys", base.size())
                .number("baseSourceRevision", base.isEmpty() ? 0 : span.from() - 1)
                .number("baseTxns", republisher.baseTxns())
                .string("pace", pace.toString())
                .decimal("seconds", seconds)
                .decimal("revisionsPerSecond", rate)
                .end());
            out.flush();
            return ExitCodes.OK;
        }
        out.printf("republished revisions %d..%d of %s (%d revisions, %d changes) into %s%n",
            span.from(), span.to(), directory, republisher.revisions(), republisher.changes(), into);
        out.printf("target revisions: 1..%d (base state: %s)%n", targetLast, base.isEmpty() ? "none" :
            base.size() + " keys at source revision " + (span.from() - 1) + ", txns: " + republisher.baseTxns());
        out.printf("pace %s: %.3f s, %.0f revisions/s%n", pace, seconds, rate);
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * After a failure: deletes the target directory if this command created it, else everything
     * in it (it was empty), so no half-built log is left to be mistaken for a good one.
     */
    private void removeWhatWasBuilt(final boolean created)
    {
        if (!Files.exists(into))
        {
            return;
        }
        try (Stream<Path> walk = Files.walk(into))
        {
            final List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
            for (final Path path : paths)
            {
                if (created || !path.equals(into))
                {
                    Files.delete(path);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new RepublishException("re-publishing failed and " + into + " could not be cleaned up: " + ex.getMessage(), ex);
        }
    }

    private Collection<KeyState> baseState(final SourceLog log, final long first, final PrintWriter err)
    {
        try
        {
            return StateAt.rebuild(log, first - 1, "revision", KeyFilter.all(), err,
                total -> progress.start(err, "base state", total)).keys().values();
        }
        catch (final RevisionOutOfRangeException ex)
        {
            throw new RevisionOutOfRangeException("--from " + first + " needs the state at revision " + (first - 1) +
                ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @return true if the target does not exist yet (the command creates it), false if it is an
     *         existing empty directory.
     */
    private boolean requireFreshTarget()
    {
        if (Files.exists(into))
        {
            if (!Files.isDirectory(into))
            {
                throw new UsageException("--into " + into + " is not a directory");
            }
            try (Stream<Path> entries = Files.list(into))
            {
                if (entries.findAny().isPresent())
                {
                    throw new UsageException("--into " + into + " is not empty; re-publishing needs a fresh directory");
                }
            }
            catch (final IOException ex)
            {
                throw new UsageException("--into " + into + " cannot be listed: " + ex.getMessage(), ex);
            }
            return false;
        }
        final Path parent = into.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent))
        {
            throw new UsageException("--into " + into + ": its parent directory does not exist");
        }
        return true;
    }

    private RingWatch openTarget()
    {
        try
        {
            return RingWatch.open(RingWatchConfig.builder().persistence(LogConfig.builder(into).build()).build());
        }
        catch (final RevisionLogException | RingWatchException ex)
        {
            throw new RepublishException("cannot open an engine over " + into + ": " + ex.getMessage(), ex);
        }
    }
}
