package io.ringwatch.perf.report;

import java.util.List;
import java.util.Locale;

/**
 * Draws write-to-listener latency over time as an inline SVG: for each peer its p99 per second
 * (solid) and max per second (thin), on a log scale against seconds into the measured phase, with
 * the peer's stop-the-world GC pauses as ticks along the bottom, so a stall or a pause can be
 * placed. Peers ran one after another; each line starts at its own measured phase. Stateless; any
 * thread; allocates the SVG text.
 */
public final class TimelinePlot
{
    static final int WIDTH = 960;
    static final int HEIGHT = 400;
    private static final int LEFT = 80;
    private static final int RIGHT = 230;
    private static final int TOP = 40;
    private static final int BOTTOM = 70;
    private static final double FLOOR_MICROS = 0.1;

    private TimelinePlot()
    {
    }

    /**
     * @param results the peers, in the order they ran.
     * @return the SVG element; a short paragraph instead when no peer has a timeline.
     */
    public static String svg(final List<PeerResult> results)
    {
        double low = Double.MAX_VALUE;
        double high = FLOOR_MICROS;
        double end = 1;
        for (final PeerResult r : results)
        {
            for (final TimelinePoint p : r.timeline())
            {
                low = Math.min(low, Math.max(FLOOR_MICROS, p.p99Nanos() / 1000.0));
                high = Math.max(high, p.maxNanos() / 1000.0);
                end = Math.max(end, p.seconds());
            }
        }
        if (low == Double.MAX_VALUE)
        {
            return "<p>No per-second figures were recorded.</p>\n";
        }
        final double plotRight = WIDTH - RIGHT;
        final double plotBottom = HEIGHT - BOTTOM;
        final LogScale y = LogScale.covering(low, high, plotBottom, TOP);
        final double step = ThroughputChart.niceStep(end / 8);
        final double xMax = Math.ceil(end / step) * step;
        final StringBuilder svg = new StringBuilder(16 * 1024);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot timeline\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
            .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append("<text x=\"").append(LEFT).append("\" y=\"24\" font-size=\"15\" font-weight=\"bold\">")
            .append("Write-to-listener latency per second (p99 solid, max thin; GC pauses below)</text>\n");
        for (double s = 0; s <= xMax + 1e-9; s += step)
        {
            final double x = x(s, xMax, plotRight);
            svg.append(PercentilePlot.line(x, TOP, x, plotBottom, "#ddd"));
            svg.append(PercentilePlot.text(x, plotBottom + 18, "middle", Markup.seconds(s)));
        }
        for (int decade = y.lowDecade(); decade <= y.highDecade(); decade++)
        {
            final double py = y.pixel(Math.pow(10, decade));
            svg.append(PercentilePlot.line(LEFT, py, plotRight, py, "#ddd"));
            svg.append(PercentilePlot.text(LEFT - 8, py + 4, "end", Markup.decadeOfMicros(decade)));
        }
        svg.append(PercentilePlot.text((LEFT + plotRight) / 2, HEIGHT - 14, "middle", "seconds into the measured phase"));
        svg.append("<text transform=\"translate(18,").append(Markup.px((TOP + plotBottom) / 2))
            .append(") rotate(-90)\" text-anchor=\"middle\">latency (log scale)</text>\n");
        svg.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
            .append(Markup.px(plotRight - LEFT)).append("\" height=\"").append(Markup.px(plotBottom - TOP))
            .append("\" fill=\"none\" stroke=\"#888\"/>\n");
        int legendRow = 0;
        for (int i = 0; i < results.size(); i++)
        {
            final PeerResult r = results.get(i);
            if (r.timeline().isEmpty())
            {
                continue;
            }
            final String colour = PeerStyle.colour(r.peer(), i);
            svg.append(polyline(r, y, xMax, plotRight, colour, true));
            svg.append(polyline(r, y, xMax, plotRight, colour, false));
            final double tickY = plotBottom + 24 + 7 * (i % 4);
            int measuredPauses = 0;
            for (final GcPause pause : r.activity().pauses())
            {
                // Pauses of the warm-up (negative times) are in the JVM table, not on this axis.
                if (pause.atSeconds() >= 0 && pause.atSeconds() <= xMax)
                {
                    measuredPauses++;
                    final double px = x(pause.atSeconds(), xMax, plotRight);
                    svg.append("<rect class=\"gc\" data-series=\"").append(Markup.escape(r.peer())).append("\" x=\"")
                        .append(Markup.px(px - 1)).append("\" y=\"").append(Markup.px(tickY)).append("\" width=\"")
                        .append(Markup.px(Math.max(2, pause.millis() / 1000.0 / xMax * (plotRight - LEFT)))).append("\" height=\"6\" fill=\"")
                        .append(colour).append("\"><title>").append(Markup.escape(pause.collector() + ", " + pause.cause() + ": " +
                            String.format(Locale.ROOT, "%.1f ms at %.2f s", pause.millis(), pause.atSeconds())))
                        .append("</title></rect>\n");
                }
            }
            final double ly = TOP + 10 + 52 * legendRow++;
            svg.append(PercentilePlot.line(plotRight + 16, ly, plotRight + 40, ly, colour).replace("/>", " stroke-width=\"3\"/>"));
            svg.append(PercentilePlot.text(plotRight + 46, ly + 4, "start", r.peer()));
            svg.append(PercentilePlot.text(plotRight + 46, ly + 19, "start", "worst second p99 " + Markup.latency(worstP99Micros(r)))
                .replace("<text", "<text fill=\"#555\" font-size=\"11\""));
            svg.append(PercentilePlot.text(plotRight + 46, ly + 33, "start", measuredPauses + " GC pauses shown")
                .replace("<text", "<text fill=\"#555\" font-size=\"11\""));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /**
     * @param r a peer's result.
     * @return the highest per-second p99, microseconds; NaN without a timeline.
     */
    static double worstP99Micros(final PeerResult r)
    {
        return r.timeline().stream().mapToDouble(p -> p.p99Nanos() / 1000.0).max().orElse(Double.NaN);
    }

    private static String polyline(final PeerResult r, final LogScale y, final double xMax, final double plotRight,
        final String colour, final boolean p99)
    {
        final StringBuilder points = new StringBuilder(r.timeline().size() * 16);
        for (final TimelinePoint p : r.timeline())
        {
            points.append(Markup.px(x(p.seconds(), xMax, plotRight))).append(',')
                .append(Markup.px(y.pixel((p99 ? p.p99Nanos() : p.maxNanos()) / 1000.0))).append(' ');
        }
        return "<polyline class=\"" + (p99 ? "p99" : "max") + "\" data-series=\"" + Markup.escape(r.peer()) +
            "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" + (p99 ? "2.5" : "1") + "\"" +
            (p99 ? "" : " stroke-opacity=\"0.6\"") + " points=\"" + points.toString().trim() + "\"/>\n";
    }

    private static double x(final double seconds, final double xMax, final double plotRight)
    {
        return LEFT + (plotRight - LEFT) * seconds / xMax;
    }
}
