package io.ringwatch.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code list <dir>}: what a log holds, one {@code name: value} line per fact (or one JSON object). Reads the metadata,
 * the first and last excerpts, the end of the last queue file and the directory listing only; a
 * problem in what it reads ends it with exit 1. Runs on the command's thread.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "Shows what a log holds: revisions, compaction and snapshot points, files, time span.")
final class ListCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The data directory.")
    Path directory;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
        description = "text (name: value lines) or json (one object).")
    OutputFormat format;

    /**
     * Prints the facts.
     *
     * @return {@link ExitCodes#OK}.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        try (SourceLog log = SourceLog.open(directory))
        {
            final long first = log.firstRevision();
            final long last = log.lastRevision();
            final List<Long> snapshots = SnapshotCatalog.revisions(directory);
            final DiskUsage usage = DiskUsage.of(directory);
            final boolean incomplete = log.endsInIncompleteExcerpt();
            final long fromNanos = last == 0 ? 0 : log.timestampOf(first);
            final long toNanos = last == 0 ? 0 : log.timestampOf(last);
            if (format == OutputFormat.JSON)
            {
                out.println(new JsonLine()
                    .string("directory", directory.toString())
                    .number("firstRevision", first)
                    .number("lastRevision", last)
                    .number("revisions", last == 0 ? 0 : last - first + 1)
                    .number("compactRevision", log.compactRevision())
                    .number("snapshotRevision", log.snapshotRevision())
                    .numbers("snapshots", snapshots)
                    .number("files", usage.files())
                    .number("cycleFiles", usage.cycleFiles())
                    .number("snapshotFiles", usage.snapshotFiles())
                    .number("bytes", usage.bytes())
                    .flag("incompleteTail", incomplete)
                    .string("firstTime", last == 0 ? null : OutputFormat.instant(fromNanos))
                    .string("lastTime", last == 0 ? null : OutputFormat.instant(toNanos))
                    .decimal("spanSeconds", (toNanos - fromNanos) / 1e9)
                    .end());
                out.flush();
                return ExitCodes.OK;
            }
            out.printf("directory: %s%n", directory);
            out.printf("first revision: %d%n", first);
            out.printf("last revision: %d%n", last);
            out.printf("revisions: %d%n", last == 0 ? 0 : last - first + 1);
            out.printf("compact revision: %d%n", log.compactRevision());
            out.printf("snapshot revision: %d%n", log.snapshotRevision());
            out.printf("snapshots: %s%n", snapshots);
            out.printf("files: %d (%d queue cycle files, %d snapshots)%n", usage.files(), usage.cycleFiles(), usage.snapshotFiles());
            out.printf("bytes: %d (apparent size; queue files are sparse)%n", usage.bytes());
            out.printf("tail: %s%n", incomplete ? SourceLog.INCOMPLETE_TAIL : "complete");
            out.printf("checked: metadata, first and last excerpts (revisions is last - first + 1, numbers skipped " +
                "after unclean closes included; verify checks every excerpt and counts held and skipped apart)%n");
            if (last == 0)
            {
                out.printf("time span: -%n");
            }
            else
            {
                out.printf("time span: %s .. %s (%.3f s)%n",
                    OutputFormat.instant(fromNanos), OutputFormat.instant(toNanos), (toNanos - fromNanos) / 1e9);
            }
            out.flush();
        }
        return ExitCodes.OK;
    }
}
