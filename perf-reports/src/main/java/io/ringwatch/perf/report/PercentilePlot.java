package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.List;

/**
 * Draws latency percentile distributions as an inline SVG, HdrHistogram-plotter style: x is the
 * percentile on the {@link PercentileAxis} (0%, 90%, 99%, 99.9%...), y the latency on a log scale,
 * one line per peer on the same axes, with optional target points. Stateless; any thread;
 * allocates the SVG text.
 */
public final class PercentilePlot
{
    static final int WIDTH = 960;
    static final int HEIGHT = 460;
    private static final int LEFT = 80;
    private static final int RIGHT = 230;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final int TICKS_PER_HALF_DISTANCE = 5;
    private static final double FLOOR_MICROS = 0.1;

    private PercentilePlot()
    {
    }

    /** The dash pattern of a floor line. */
    private static final String FLOOR_DASHES = "7 4";

    /**
     * One line of the plot.
     *
     * @param name      the legend entry (the peer's name).
     * @param colour    the line colour.
     * @param floor     true for the reference line the others are read against: drawn dashed,
     *                  marked "(floor)" in the legend.
     * @param histogram latencies in nanoseconds.
     */
    public record Series(String name, String colour, boolean floor, Histogram histogram)
    {
    }

    /**
     * A point the latency should stay under, drawn as a diamond.
     *
     * @param percentile the percentile, 0 to 100.
     * @param micros     the latency, in microseconds.
     * @param label      what it is.
     */
    public record Target(double percentile, double micros, String label)
    {
    }

    /**
     * @param title   the plot's title.
     * @param series  the lines; empty histograms are left out.
     * @param targets points to mark.
     * @return the SVG element.
     */
    public static String svg(final String title, final List<Series> series, final List<Target> targets)
    {
        long maxCount = 1;
        double low = Double.MAX_VALUE;
        double high = FLOOR_MICROS;
        for (final Series s : series)
        {
            final Histogram h = s.histogram();
            if (h.getTotalCount() > 0)
            {
                maxCount = Math.max(maxCount, h.getTotalCount());
                low = Math.min(low, Math.max(FLOOR_MICROS, h.getMinValue() / 1000.0));
                high = Math.max(high, h.getMaxValue() / 1000.0);
            }
        }
        for (final Target t : targets)
        {
            low = Math.min(low, t.micros());
            high = Math.max(high, t.micros());
        }
        if (low == Double.MAX_VALUE)
        {
            low = 1;
        }
        final int lastTick = (int)Math.ceil(PercentileAxis.lastNines(maxCount));
        final double plotRight = WIDTH - RIGHT;
        final double plotBottom = HEIGHT - BOTTOM;
        final LogScale y = LogScale.covering(low, high, plotBottom, TOP);
        final StringBuilder svg = new StringBuilder(16 * 1024);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
            .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append("<text x=\"").append(LEFT).append("\" y=\"24\" font-size=\"15\" font-weight=\"bold\">")
            .append(Markup.escape(title)).append("</text>\n");
        for (int nines = 0; nines <= lastTick; nines++)
        {
            final double x = x(nines, lastTick);
            svg.append(line(x, TOP, x, plotBottom, "#ddd"));
            svg.append(text(x, plotBottom + 18, "middle", PercentileAxis.label(nines)));
        }
        for (int decade = y.lowDecade(); decade <= y.highDecade(); decade++)
        {
            final double py = y.pixel(Math.pow(10, decade));
            svg.append(line(LEFT, py, plotRight, py, "#ddd"));
            svg.append(text(LEFT - 8, py + 4, "end", Markup.decadeOfMicros(decade)));
        }
        svg.append(text((LEFT + plotRight) / 2, HEIGHT - 18, "middle", "percentile (log scale of 1/(1-p))"));
        svg.append("<text transform=\"translate(18,").append(Markup.px((TOP + plotBottom) / 2))
            .append(") rotate(-90)\" text-anchor=\"middle\">latency (log scale)</text>\n");
        svg.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
            .append(Markup.px(plotRight - LEFT)).append("\" height=\"").append(Markup.px(plotBottom - TOP))
            .append("\" fill=\"none\" stroke=\"#888\"/>\n");

        int legendRow = 0;
        for (final Series s : series)
        {
            final Histogram h = s.histogram();
            if (h.getTotalCount() == 0)
            {
                continue;
            }
            svg.append(polyline(s, y, lastTick));
            final double ly = TOP + 10 + 36 * legendRow++;
            svg.append(line(plotRight + 16, ly, plotRight + 40, ly, s.colour()).replace("/>", " stroke-width=\"3\"" + dashes(s) + "/>"));
            svg.append(text(plotRight + 46, ly + 4, "start", s.floor() ? s.name() + " (floor)" : s.name()));
            svg.append(text(plotRight + 46, ly + 19, "start", "p99 " + Markup.latency(h.getValueAtPercentile(99) / 1000.0) +
                ", max " + Markup.latency(h.getMaxValue() / 1000.0)).replace("<text", "<text fill=\"#555\" font-size=\"11\""));
        }
        for (final Target t : targets)
        {
            final double tx = x(PercentileAxis.nines(t.percentile(), lastTick), lastTick);
            final double ty = y.pixel(t.micros());
            svg.append("<path d=\"M").append(Markup.px(tx)).append(' ').append(Markup.px(ty - 6)).append(" l6 6 l-6 6 l-6 -6 z\"")
                .append(" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n");
            svg.append(text(tx + 9, ty - 6, "start", t.label()).replace("<text", "<text font-size=\"11\""));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String polyline(final Series s, final LogScale y, final int lastTick)
    {
        final Histogram h = s.histogram();
        final double lastNines = PercentileAxis.lastNines(h.getTotalCount());
        final StringBuilder points = new StringBuilder(4096);
        for (final HistogramIterationValue v : h.percentiles(TICKS_PER_HALF_DISTANCE))
        {
            final double nines = PercentileAxis.nines(v.getPercentileLevelIteratedTo(), lastNines);
            final double micros = Math.max(FLOOR_MICROS, h.highestEquivalentValue(v.getValueIteratedTo()) / 1000.0);
            points.append(Markup.px(x(nines, lastTick))).append(',').append(Markup.px(y.pixel(micros))).append(' ');
        }
        return "<polyline class=\"series\" data-series=\"" + Markup.escape(s.name()) + "\" fill=\"none\" stroke=\"" +
            s.colour() + "\" stroke-width=\"2\"" + dashes(s) + " points=\"" + points.toString().trim() + "\"/>\n";
    }

    private static String dashes(final Series s)
    {
        return s.floor() ? " stroke-dasharray=\"" + FLOOR_DASHES + "\"" : "";
    }

    private static double x(final double nines, final int lastTick)
    {
        return LEFT + nines / lastTick * (WIDTH - RIGHT - LEFT);
    }

    static String line(final double x1, final double y1, final double x2, final double y2, final String colour)
    {
        return "<line x1=\"" + Markup.px(x1) + "\" y1=\"" + Markup.px(y1) + "\" x2=\"" + Markup.px(x2) + "\" y2=\"" +
            Markup.px(y2) + "\" stroke=\"" + colour + "\"/>\n";
    }

    static String text(final double x, final double y, final String anchor, final String content)
    {
        return "<text x=\"" + Markup.px(x) + "\" y=\"" + Markup.px(y) + "\" text-anchor=\"" + anchor + "\">" +
            Markup.escape(content) + "</text>\n";
    }
}
