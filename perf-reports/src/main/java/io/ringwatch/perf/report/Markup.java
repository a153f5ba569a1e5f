package io.ringwatch.perf.report;

import java.util.Locale;

/**
 * Text helpers for the HTML, SVG and text reports: escaping and number formats. Stateless.
 */
final class Markup
{
    private Markup()
    {
    }

    static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A latency in microseconds, in the unit that reads best. */
    static String latency(final double micros)
    {
        if (Double.isNaN(micros))
        {
            return "-";
        }
        if (micros < 1_000)
        {
            return String.format(Locale.ROOT, "%.1f µs", micros);
        }
        if (micros < 1_000_000)
        {
            return String.format(Locale.ROOT, "%.2f ms", micros / 1_000);
        }
        return String.format(Locale.ROOT, "%.2f s", micros / 1_000_000);
    }

    /** Seconds on an axis: whole seconds without a fraction. */
    static String seconds(final double seconds)
    {
        return seconds == Math.rint(seconds) ? String.format(Locale.ROOT, "%d s", (long)seconds) :
            String.format(Locale.ROOT, "%.1f s", seconds);
    }

    /** A rate, rounded, with thousands separators. */
    static String rate(final double perSecond)
    {
        return String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    /** A coordinate for SVG. */
    static String px(final double value)
    {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** The axis label of a power of ten of microseconds. */
    static String decadeOfMicros(final int decade)
    {
        final String[] units = {"µs", "ms", "s"};
        if (decade < 0)
        {
            return String.format(Locale.ROOT, "%s µs", Double.toString(Math.pow(10, decade)));
        }
        final int unit = Math.min(decade / 3, units.length - 1);
        return String.format(Locale.ROOT, "%d %s", (long)Math.pow(10, decade - 3 * unit), units[unit]);
    }
}
