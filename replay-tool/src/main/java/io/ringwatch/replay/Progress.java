package io.ringwatch.replay;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A textual progress bar on stderr for long walks, redrawn in place ({@code \r}) at most ten times
 * a second, with the rate since the start and the time left at that rate:
 * {@code verify [###############---------------]  50%  250/500 revisions  1,250 rev/s  ETA 0:00:01}.
 * A disabled bar does nothing. One command thread; a redraw allocates its line, nothing else does.
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
    private final long startNanos;
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
        this.startNanos = nanoClock.getAsLong();
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
     * The line a redraw writes, without the leading carriage return: bar, share, count, and once
     * any time has passed the rate so far and the time left at that rate ({@code ETA -} until
     * something is done).
     *
     * @param done         units complete.
     * @param elapsedNanos time since the bar was created.
     * @return the bar's text.
     */
    String line(final long done, final long elapsedNanos)
    {
        final long percent = total <= 0 ? 100 : Math.min(100, done * 100 / total);
        final int filled = (int)(percent * WIDTH / 100);
        final String bar = label + " [" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] " +
            String.format(Locale.ROOT, "%3d%%  %d/%d revisions", percent, done, total);
        if (elapsedNanos <= 0)
        {
            return bar;
        }
        final double rate = done * 1e9 / elapsedNanos;
        final String eta = rate <= 0 ? "-" : clock((long)Math.ceil(Math.max(0, total - done) / rate));
        return bar + String.format(Locale.ROOT, "  %,.0f rev/s  ETA %s", rate, eta);
    }

    /**
     * Seconds as {@code h:mm:ss}.
     *
     * @param seconds a duration in whole seconds.
     * @return for example {@code 0:01:05}.
     */
    static String clock(final long seconds)
    {
        return String.format(Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60);
    }

    private void draw(final long now)
    {
        err.print('\r');
        err.print(line(done, now - startNanos));
        err.flush();
        lastDrawNanos = now;
        drawn = true;
    }
}
