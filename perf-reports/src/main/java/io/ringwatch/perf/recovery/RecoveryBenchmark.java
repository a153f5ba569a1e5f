package io.ringwatch.perf.recovery;

import io.ringwatch.engine.errors.InvalidRequestException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * How fast a persistent RingWatch engine comes back: writes {@code --revisions} puts through an
 * engine with an ASYNC revision log and snapshots off (the append rate), then times
 * {@code RingWatch.open} replaying the whole log, then, after the engine took one snapshot at close,
 * {@code RingWatch.open} from that snapshot; prints revisions per second for each (see
 * {@link RecoveryRun}). The data goes to a fresh directory under {@code --work-dir}, deleted at the
 * end unless {@code --keep}; the run refuses to start without the disk space it needs.
 * <p>
 * Run: {@code java <JVM flags> -cp perf-reports/target/ringwatch-perf.jar io.ringwatch.perf.recovery.RecoveryBenchmark}
 * (see perf-reports/README.md, "Recovery"). One run per JVM, on the main thread; allocates engines,
 * their logs and the report.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Writes N revisions through a persistent (ASYNC) engine, then times RingWatch.open replaying the",
        "whole log, and again from one snapshot taken at close; prints the append and recovery rates."})
public final class RecoveryBenchmark implements Callable<Integer>
{
    @Option(names = "--revisions", description = "puts to write, one revision each. Default: ${DEFAULT-VALUE}")
    private long revisions = 10_000_000;

    @Option(names = "--keys", description = "distinct keys the puts cycle through. Default: ${DEFAULT-VALUE}")
    private int keys = 1_000_000;

    @Option(names = "--value-size", description = "value bytes (at least 8). Default: ${DEFAULT-VALUE}")
    private int valueSize = 100;

    @Option(names = "--work-dir", description = "where the run's data directory is created. Default: ${DEFAULT-VALUE}")
    private Path workDir = Path.of(System.getProperty("java.io.tmpdir"));

    @Option(names = "--keep", description = "keep the data directory afterwards (it is deleted by default)")
    private boolean keep;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the benchmark and exits: 0 when done, 2 for bad options or too little disk.
     *
     * @param args the command line; {@code --help} lists the options.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * Builds the command line; options that cannot run are a usage error (exit 2) with the reason.
     * Any thread; allocates the parser.
     *
     * @return the parser, ready to {@code execute}.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new RecoveryBenchmark());
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) ->
        {
            if (e instanceof IllegalArgumentException || e instanceof InvalidRequestException)
            {
                cmd.getErr().println("error: " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            throw e;
        });
        return commandLine;
    }

    /**
     * Runs the three phases and prints the figures. Picocli's thread.
     *
     * @return the exit code.
     * @throws IOException if the data directory cannot be created or deleted.
     */
    @Override
    public Integer call() throws IOException
    {
        final RecoverySettings settings = new RecoverySettings(revisions, keys, valueSize);
        final PrintWriter out = spec.commandLine().getOut();
        final Path directory = Files.createTempDirectory(Files.createDirectories(workDir), "ringwatch-recovery-");
        out.printf("data directory: %s%s%n", directory, keep ? " (kept)" : " (deleted afterwards)");
        out.flush();
        try
        {
            final RecoveryFigures figures = new RecoveryRun(settings, directory, out).run();
            out.print(figures.toText());
            out.flush();
        }
        finally
        {
            if (!keep)
            {
                delete(directory);
            }
        }
        return CommandLine.ExitCode.OK;
    }

    private static void delete(final Path directory) throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            for (final Path path : (Iterable<Path>)paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.delete(path);
            }
        }
        catch (final UncheckedIOException e)
        {
            throw e.getCause();
        }
    }
}
