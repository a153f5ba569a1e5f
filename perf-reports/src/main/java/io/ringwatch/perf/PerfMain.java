package io.ringwatch.perf;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.perf.load.ProducerWait;
import io.ringwatch.perf.peer.EtcdClientKind;
import io.ringwatch.perf.peer.Persistence;
import io.ringwatch.perf.peer.ThreadIdle;
import io.ringwatch.perf.peer.WriteMode;
import io.ringwatch.perf.peer.WriterWait;
import picocli.CommandLine;

import java.time.Duration;

/**
 * The harness's entry point: {@code java -jar ringwatch-perf.jar [options]} runs the load against
 * each {@code --engine} in turn and writes a report; {@code java -jar ringwatch-perf.jar index DIR}
 * rewrites a reports directory's index page. See the module's README for the options.
 */
public final class PerfMain
{
    private PerfMain()
    {
    }

    /**
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * Builds the command line with its converters. Any thread; allocates the parser.
     *
     * @return the parser, ready to {@code execute}.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new RunCommand());
        commandLine.registerConverter(Duration.class, new DurationConverter());
        commandLine.registerConverter(PeerKind.class, new DashedEnumConverter<>(PeerKind.class));
        commandLine.registerConverter(WriterWait.class, new DashedEnumConverter<>(WriterWait.class));
        commandLine.registerConverter(ThreadIdle.class, new DashedEnumConverter<>(ThreadIdle.class));
        commandLine.registerConverter(ProducerWait.class, new DashedEnumConverter<>(ProducerWait.class));
        commandLine.registerConverter(WriteMode.class, new DashedEnumConverter<>(WriteMode.class));
        commandLine.registerConverter(Persistence.class, new DashedEnumConverter<>(Persistence.class));
        commandLine.registerConverter(EtcdClientKind.class, new DashedEnumConverter<>(EtcdClientKind.class));
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
}
