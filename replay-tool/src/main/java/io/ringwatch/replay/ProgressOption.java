package io.ringwatch.replay;

import java.io.PrintWriter;

import picocli.CommandLine.Option;

/**
 * The {@code --progress} option shared by the long-running commands: the bar is drawn when
 * stderr is a terminal ({@link Terminal}) or when the option forces it; redirected, it stays
 * silent. Set by picocli on the command's thread.
 */
final class ProgressOption
{
    @Option(names = "--progress", description = "Draw a progress bar (rate, ETA) on stderr even when it is not a terminal.")
    boolean forced;

    /**
     * Whether a bar is drawn.
     *
     * @param terminal whether stderr is a terminal.
     * @return true when forced or on a terminal.
     */
    boolean shows(final boolean terminal)
    {
        return forced || terminal;
    }

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
        return shows(Terminal.stderrIsTerminal()) ? new Progress(err, label, total, System::nanoTime) : Progress.none();
    }
}
