package io.ringwatch.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code list <dir>}: what a log holds, one {@code name: value} line per fact. Reads the metadata,
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
            out.printf("directory: %s%n", directory);
            out.printf("first revision: %d%n", first);
            out.printf("last revision: %d%n", last);
            out.printf("revisions: %d%n", last == 0 ? 0 : last - first + 1);
            out.printf("compact revision: %d%n", log.compactRevision());
            out.printf("snapshot revision: %d%n", log.snapshotRevision());
            out.printf("snapshots: %s%n", snapshots);
            out.printf("files: %d (%d queue cycle files, %d snapshots)%n", usage.files(), usage.cycleFiles(), usage.snapshotFiles());
            out.printf("bytes: %d (apparent size; queue files are sparse)%n", usage.bytes());
            out.printf("tail: %s%n", log.endsInIncompleteExcerpt() ? SourceLog.INCOMPLETE_TAIL : "complete");
            out.printf("checked: metadata, first and last excerpts (verify checks every excerpt)%n");
            if (last == 0)
            {
                out.printf("time span: -%n");
            }
            else
            {
                final long from = log.timestampOf(first);
                final long to = log.timestampOf(last);
                out.printf("time span: %s .. %s (%.3f s)%n",
                    OutputFormat.instant(from), OutputFormat.instant(to), (to - from) / 1e9);
            }
            out.flush();
        }
        return ExitCodes.OK;
    }
}
