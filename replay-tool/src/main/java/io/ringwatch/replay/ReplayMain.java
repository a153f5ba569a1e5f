package io.ringwatch.replay;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.ringwatch.persistence.RevisionLogException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ringwatch-replay}: reads a RingWatch revision log without starting an engine ({@code list},
 * {@code print}, {@code state}, {@code verify}) and re-publishes its history into a new engine
 * ({@code republish}). Every failure is one line on stderr and an exit code from {@link ExitCodes}.
 * Runs on the main thread.
 */
@Command(name = "ringwatch-replay", mixinStandardHelpOptions = true, version = "ringwatch-replay 0.1.0",
    description = "Reads, checks and re-publishes a RingWatch revision log (a data directory).",
    subcommands = {ListCommand.class, PrintCommand.class, StateCommand.class, VerifyCommand.class, RepublishCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:done; verify found the log sound",
        "1:the log is corrupt (verify's first problem, or one met while reading)",
        "2:bad command line, or --into not empty",
        "3:the directory is missing or holds no RingWatch log",
        "4:a revision is out of the log's reach",
        "5:the re-publishing engine refused a revision",
        "6:another failure (for example an I/O error), on one line"},
    footer = {"%n<dir> is an engine data directory (ringwatch.meta, queue/, snapshots/); nothing in it is changed.%n"})
public final class ReplayMain implements Callable<Integer>
{
    private static final int OUT_BUFFER_BYTES = 1 << 16;

    @Spec
    CommandSpec spec;

    private ReplayMain()
    {
    }

    /**
     * Runs the tool and exits with its exit code.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        // picocli's default out flushes every line (25,000 lines/s into a file); one large byte
        // buffer flushed when full and at the end writes what print and state produce at disk speed.
        final PrintWriter out = new ToolOut(new FileOutputStream(FileDescriptor.out), OUT_BUFFER_BYTES);
        final CommandLine commandLine = commandLine();
        commandLine.setOut(out);
        final int exitCode = commandLine.execute(args);
        out.flush();
        System.exit(exitCode);
    }

    /**
     * Builds the command line: subcommands, converters and the handlers that turn errors into one
     * line and an exit code. Any thread; allocates the parser.
     *
     * @return the parser, ready to {@code execute}; set its out and err to capture them.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new ReplayMain());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.registerConverter(Pace.class, text ->
        {
            try
            {
                return Pace.parse(text);
            }
            catch (final UsageException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        });
        commandLine.setParameterExceptionHandler((ex, args) ->
        {
            final CommandLine command = ex.getCommandLine();
            if (isUnknownCommand(ex, command))
            {
                final String word = ((CommandLine.UnmatchedArgumentException)ex).getUnmatched().get(0);
                command.getErr().println(UnknownCommand.message(command.getCommandName(), word, commandNames(command)));
                return ExitCodes.USAGE;
            }
            command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + ex.getMessage() + " (see --help)");
            return ExitCodes.USAGE;
        });
        commandLine.setExecutionExceptionHandler((ex, command, parsed) ->
        {
            final String name = command.getCommandSpec().qualifiedName();
            if (ex instanceof ReplayException)
            {
                command.getErr().println(name + ": " + ex.getMessage());
                return ((ReplayException)ex).exitCode();
            }
            if (ex instanceof RevisionLogException)
            {
                command.getErr().println(name + ": " + ex.getMessage());
                return ExitCodes.CORRUPT;
            }
            command.getErr().println(name + ": failed: " + ex);
            return ExitCodes.FAILED;
        });
        final CommandLine.IExecutionStrategy run = new CommandLine.RunLast();
        commandLine.setExecutionStrategy(parsed ->
        {
            try
            {
                return run.execute(parsed);
            }
            catch (final InternalError | AssertionError ex)
            {
                // picocli lets Errors through; these are faults on a mapped page of a damaged queue
                // file (or Chronicle's assertions about one), still one line and an exit code.
                CommandLine.ParseResult last = parsed;
                while (last.hasSubcommand())
                {
                    last = last.subcommand();
                }
                last.commandSpec().commandLine().getErr().println(last.commandSpec().qualifiedName() +
                    ": the log is unreadable (a queue file cut short or damaged): " + ex);
                return ExitCodes.CORRUPT;
            }
        });
        return commandLine;
    }

    /**
     * Whether a parse failure is a first word that names no command (rather than a bad option of
     * a command that was recognised).
     */
    private static boolean isUnknownCommand(final CommandLine.ParameterException ex, final CommandLine command)
    {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException) || command.getParent() != null)
        {
            return false;
        }
        final List<String> unmatched = ((CommandLine.UnmatchedArgumentException)ex).getUnmatched();
        return !unmatched.isEmpty() && !unmatched.get(0).startsWith("-");
    }

    private static List<String> commandNames(final CommandLine command)
    {
        return new ArrayList<>(command.getSubcommands().keySet());
    }

    /**
     * Without a subcommand: prints the usage to stderr.
     *
     * @return {@link ExitCodes#USAGE}.
     */
    @Override
    public Integer call()
    {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
