package io.ringwatch.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.ringwatch.persistence.ChangeView;
import io.ringwatch.persistence.LeaseFile;
import io.ringwatch.persistence.RevisionRecord;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code print <dir>}: the events of revisions A..B, filtered by key, one line each. Runs on the
 * command's thread; allocates each line.
 */
@Command(name = "print", mixinStandardHelpOptions = true,
    description = "Prints the events of revisions --from..--to, one line each (text or JSON Lines), and the lease " +
        "grants and ends recorded after each revision.")
final class PrintCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The data directory.")
    Path directory;

    @Option(names = "--from", paramLabel = "A", description = "First revision (default: the log's first).")
    Long from;

    @Option(names = "--to", paramLabel = "B", description = "Last revision (default: the log's last).")
    Long to;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    KeySelection keys;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
        description = "text (printable UTF-8 or hex) or json (JSON Lines; non-UTF-8 bytes as base64 with a flag).")
    OutputFormat format;

    @Mixin
    ProgressOption progress;

    /**
     * Prints the events.
     *
     * @return {@link ExitCodes#OK}.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final KeyFilter filter = KeySelection.filterOf(keys);
        try (SourceLog log = SourceLog.open(directory))
        {
            final RevisionSpan span = log.span(from, to);
            // On a terminal the lines themselves show progress; a bar would tear them, so only on request.
            final Progress bar = progress.forced ? progress.start(spec.commandLine().getErr(), "print", span.count()) : Progress.none();
            final LeaseLines leases = new LeaseLines(out, format, LeaseFile.read(directory), span.from(), span.to());
            try
            {
                if (format == OutputFormat.TEXT)
                {
                    final TextEventLine line = new TextEventLine(out);
                    log.read(span, record ->
                    {
                        leases.printBefore(record.revision());
                        printText(line, record, filter);
                    }, bar);
                    leases.printRest();
                }
                else
                {
                    log.read(span, record ->
                    {
                        leases.printBefore(record.revision());
                        printEvents(out, record, filter);
                    }, bar);
                    leases.printRest();
                }
            }
            finally
            {
                bar.finish();
                out.flush();
            }
        }
        return ExitCodes.OK;
    }

    /** The text lines, formatted from the log's buffer without a string per line. */
    private static void printText(final TextEventLine line, final RevisionRecord record, final KeyFilter filter)
    {
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            if (filter.matches(change.buffer(), change.keyOffset(), change.keyLength()))
            {
                line.write(record.revision(), record.timestampNanos(), change);
            }
        }
    }

    private void printEvents(final PrintWriter out, final RevisionRecord record, final KeyFilter filter)
    {
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            if (filter.matches(change.buffer(), change.keyOffset(), change.keyLength()))
            {
                out.println(format.event(record.revision(), record.timestampNanos(), change.type(), KeyState.key(change),
                    KeyState.after(change), KeyState.before(change)));
            }
        }
    }
}
