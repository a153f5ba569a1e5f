package io.ringwatch.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import io.ringwatch.persistence.LeaseFile;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code state <dir> --at R}: the keys of a range as they were at revision R, rebuilt by
 * {@link StateAt}, one line per key in key order; a summary goes to stderr. Runs on the command's
 * thread; holds the selected keys in memory.
 */
@Command(name = "state", mixinStandardHelpOptions = true,
    description = "Prints the keys of a range as they were at revision --at (from a snapshot and the log), then " +
        "the leases live at that revision with how many of those keys each holds.")
final class StateCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The data directory.")
    Path directory;

    @Option(names = "--at", required = true, paramLabel = "R", description = "The revision.")
    long at;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    KeySelection keys;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
        description = "text (printable UTF-8 or hex) or json (JSON Lines; non-UTF-8 bytes as base64 with a flag).")
    OutputFormat format;

    @Mixin
    ProgressOption progress;

    /**
     * Rebuilds and prints the state.
     *
     * @return {@link ExitCodes#OK}.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final KeyFilter filter = KeySelection.filterOf(keys);
        try (SourceLog log = SourceLog.open(directory))
        {
            final StateAt.Result state = StateAt.rebuild(log, at, "--at", filter, err,
                total -> progress.start(err, "state", total));
            final TreeMap<Long, Long> leases = LeaseLines.liveAt(LeaseFile.read(directory), state.revision());
            final TreeMap<Long, Long> keysPerLease = new TreeMap<>();
            for (final KeyState key : state.keys().values())
            {
                out.println(format.entry(key));
                if (key.lease() != 0)
                {
                    keysPerLease.merge(key.lease(), 1L, Long::sum);
                }
            }
            leases.forEach((id, ttl) -> out.println(format.liveLease(id, ttl, keysPerLease.getOrDefault(id, 0L))));
            out.flush();
            err.println(state.keys().size() + " keys at revision " + state.revision() +
                (state.snapshotRevision() == 0 ? ", replayed from revision 1" :
                    ", from the snapshot at revision " + state.snapshotRevision()) + "; " + leases.size() + " leases");
            err.flush();
        }
        return ExitCodes.OK;
    }
}
