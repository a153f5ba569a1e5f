package io.ringwatch.replay;

import java.io.PrintWriter;

import picocli.CommandLine.Option;

/**
 * The {@code --progress} option shared by the long-running commands: the bar is drawn when the
 * tool runs on a terminal or when the option forces it. Set by picocli on the command's thread.
 */
final class ProgressOption
{
    @Option(names = "--progress", description = "Draw a progress bar on stderr even when not on a terminal.")
    boolean forced;

    /**
     * Starts a bar for {@code total} revisions, or a disabled one.
     *
     * @param err   the command's error stream.
     * @param label what the bar measures.
     * @param total how many revisions make 100%.
     * @return the bar.
     */
    Progress start(final PrintWriter err, final String label, final long total)
    {
        // System.console() is set only when stdin and stdout are terminals: the best a JVM can tell.
        final boolean show = forced || System.console() != null;
        return show ? new Progress(err, label, total, System::nanoTime) : Progress.none();
    }
}
