package io.ringwatch.replay;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * A textual progress bar on stderr for long walks, redrawn in place ({@code \r}) at most ten times
 * a second: {@code verify [##########----------]  50%  250/500 revisions}. A disabled bar does
 * nothing. One command thread; a redraw allocates its line, nothing else does.
 */
final class Progress
{
    static final long REDRAW_NANOS = 100_000_000L;
    private static final int WIDTH = 30;
    private static final Progress NONE = new Progress(null, "", 0, () -> 0);

    private final PrintWriter err;
    private final String label;
    private final long total;
    private final LongSupplier nanoClock;
    private long lastDrawNanos;
    private boolean drawn;
    private long done;

    /**
     * Creates a bar.
     *
     * @param err       where to draw; null for a disabled bar.
     * @param label     what is being done, first on the line.
     * @param total     how many units make 100%.
     * @param nanoClock a monotonic clock in nanoseconds (tests pass their own).
     */
    Progress(final PrintWriter err, final String label, final long total, final LongSupplier nanoClock)
    {
        this.err = err;
        this.label = label;
        this.total = total;
        this.nanoClock = nanoClock;
    }

    /**
     * A bar that draws nothing.
     *
     * @return the shared disabled bar.
     */
    static Progress none()
    {
        return NONE;
    }

    /**
     * Records that {@code done} units are complete; redraws if the last draw is at least
     * {@link #REDRAW_NANOS} old (the first call always draws).
     *
     * @param done units complete so far.
     */
    void advance(final long done)
    {
        if (err == null)
        {
            return;
        }
        this.done = done;
        final long now = nanoClock.getAsLong();
        if (!drawn || now - lastDrawNanos >= REDRAW_NANOS)
        {
            draw(now);
        }
    }

    /**
     * Draws the final state and ends the line, if anything was drawn.
     */
    void finish()
    {
        if (err != null && drawn)
        {
            draw(nanoClock.getAsLong());
            err.println();
            err.flush();
        }
    }

    /**
     * The line a redraw writes, without the leading carriage return.
     *
     * @param done units complete.
     * @return the bar's text.
     */
    String line(final long done)
    {
        final long percent = total <= 0 ? 100 : Math.min(100, done * 100 / total);
        final int filled = (int)(percent * WIDTH / 100);
        return label + " [" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] " +
            String.format("%3d%%  %d/%d revisions", percent, done, total);
    }

    private void draw(final long now)
    {
        err.print('\r');
        err.print(line(done));
        err.flush();
        lastDrawNanos = now;
        drawn = true;
    }
}
