package io.ringwatch.server;

import org.junit.jupiter.api.Test;
import io.ringwatch.server.watch.WatchService;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code ringwatch-server}'s command line: etcd's progress notify interval flag, its default and
 * its minimum (v3rpc watch.go), Go durations as etcd's flags take them, and the watch pumps.
 */
class ServerMainTest
{
    private static Duration interval(final String... args)
    {
        final ServerMain main = new ServerMain();
        new CommandLine(main).parseArgs(args);
        return main.engineConfig().progressNotifyInterval();
    }

    @Test
    void theProgressNotifyIntervalIsEtcdsTenMinutesUnlessGiven()
    {
        assertEquals(Duration.ofMinutes(10), interval());
        assertEquals(Duration.ofSeconds(5), interval("--experimental-watch-progress-notify-interval", "5s"));
        assertEquals(Duration.ofSeconds(90), interval("--watch-progress-notify-interval=1m30s"));
        assertEquals(Duration.ofMillis(100), interval("--watch-progress-notify-interval", "10ms"), "etcd's minimum");
    }

    @Test
    void etcdsRequestLimitFlagsAreTaken()
    {
        final ServerMain main = new ServerMain();
        new CommandLine(main).parseArgs("--max-request-bytes", "10485760", "--max-txn-ops=4");
        assertEquals(10 << 20, main.engineConfig().maxValueBytes(), "the engine takes the values such requests carry");
        assertEquals(10 << 20, main.maxRequestBytes);
        assertEquals(4, main.maxTxnOps);
        final ServerMain defaults = new ServerMain();
        new CommandLine(defaults).parseArgs();
        assertEquals(1_572_864, defaults.maxRequestBytes);
        assertEquals(128, defaults.maxTxnOps);
    }

    @Test
    void watchPumpsAreTakenAndTheDefaultFollowsTheCores()
    {
        final ServerMain main = new ServerMain();
        new CommandLine(main).parseArgs("--watch-pumps", "3");
        assertEquals(3, main.watchPumps.intValue());
        assertEquals(1, WatchService.defaultPumps(2), "the 2-core VM: one pump, as before");
        assertEquals(4, WatchService.defaultPumps(16), "a quarter of the cores");
        assertEquals(8, WatchService.defaultPumps(96), "at most 8");
        assertEquals(5, ServerOptions.builder().watchPumps(5).build().watchPumps());
        assertThrows(IllegalArgumentException.class, () -> ServerOptions.builder().watchPumps(0), "at least one pump");
    }

    @Test
    void aSettingOutOfRangeIsAUsageErrorOfOneLine()
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = ServerMain.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        assertEquals(CommandLine.ExitCode.USAGE, commandLine.execute("--watch-pumps", "0"));
        assertEquals("ringwatch-server: watch pumps must be at least 1: 0", err.toString().strip());
    }

    @Test
    void goDurations()
    {
        final GoDuration go = new GoDuration();
        assertEquals(Duration.ZERO, go.convert("0"));
        assertEquals(Duration.ofMinutes(90), go.convert("1.5h"));
        assertEquals(Duration.ofNanos(1_500), go.convert("1us500ns"));
        assertEquals(Duration.ofMillis(250), go.convert(".25s"));
        assertThrows(CommandLine.TypeConversionException.class, () -> go.convert("10"));
        assertThrows(CommandLine.TypeConversionException.class, () -> go.convert("-1s"));
        assertThrows(CommandLine.TypeConversionException.class, () -> go.convert("PT10M"));
    }
}
