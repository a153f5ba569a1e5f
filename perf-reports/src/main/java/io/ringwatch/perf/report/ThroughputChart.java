package io.ringwatch.perf.report;

import java.util.List;

/**
 * Draws the rates of each peer as grouped bars in an inline SVG: the target write rate, the
 * write rate acknowledged, and the events delivered per second over all watchers, each bar
 * labelled with its value. Stateless; any thread; allocates the SVG text.
 */
public final class ThroughputChart
{
    private static final int WIDTH = 960;
    private static final int HEIGHT = 340;
    private static final int LEFT = 90;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    private static final String[] METRICS = {"target writes/s", "writes/s acknowledged", "events/s delivered"};
    private static final String[] METRIC_COLOURS = {"#bbbbbb", "#4c72b0", "#dd8452"};

    private ThroughputChart()
    {
    }

    /**
     * @param results the peers, in order.
     * @return the SVG element.
     */
    public static String svg(final List<PeerResult> results)
    {
        double max = 1;
        for (final PeerResult r : results)
        {
            max = Math.max(max, Math.max(r.targetRate(), Math.max(r.ackRate(), r.deliveryRate())));
        }
        final double step = niceStep(max * 1.1 / 4);
        max = step * 4;
        final double plotBottom = HEIGHT - BOTTOM;
        final double plotWidth = WIDTH - LEFT - 260;
        final double groupWidth = plotWidth / Math.max(1, results.size());
        final double barWidth = Math.min(70, groupWidth / 4);
        final StringBuilder svg = new StringBuilder(4096);
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
            .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append("<text x=\"").append(LEFT).append("\" y=\"24\" font-size=\"15\" font-weight=\"bold\">")
            .append("Throughput (measured phase)</text>\n");
        for (int i = 0; i <= 4; i++)
        {
            final double value = step * i;
            final double y = plotBottom - (plotBottom - TOP) * i / 4;
            svg.append(PercentilePlot.line(LEFT, y, LEFT + plotWidth, y, "#ddd"));
            svg.append(PercentilePlot.text(LEFT - 8, y + 4, "end", Markup.rate(value)));
        }
        for (int p = 0; p < results.size(); p++)
        {
            final PeerResult r = results.get(p);
            final double[] values = {r.targetRate(), r.ackRate(), r.deliveryRate()};
            final double groupLeft = LEFT + p * groupWidth + (groupWidth - 3 * barWidth) / 2;
            for (int m = 0; m < values.length; m++)
            {
                final double height = (plotBottom - TOP) * values[m] / max;
                final double x = groupLeft + m * barWidth;
                svg.append("<rect class=\"bar\" data-series=\"").append(Markup.escape(r.peer())).append("\" x=\"")
                    .append(Markup.px(x + 2)).append("\" y=\"").append(Markup.px(plotBottom - height))
                    .append("\" width=\"").append(Markup.px(barWidth - 4)).append("\" height=\"").append(Markup.px(height))
                    .append("\" fill=\"").append(METRIC_COLOURS[m]).append("\"/>\n");
                svg.append(PercentilePlot.text(x + barWidth / 2, plotBottom - height - 5, "middle", Markup.rate(values[m]))
                    .replace("<text", "<text font-size=\"10\""));
            }
            svg.append(PercentilePlot.text(groupLeft + 1.5 * barWidth, plotBottom + 18, "middle", r.peer())
                .replace("<text", "<text font-weight=\"bold\" fill=\"" + PeerStyle.colour(r.peer(), p) + "\""));
        }
        svg.append(PercentilePlot.line(LEFT, plotBottom, LEFT + plotWidth, plotBottom, "#888"));
        for (int m = 0; m < METRICS.length; m++)
        {
            final double ly = TOP + 10 + 22 * m;
            svg.append("<rect x=\"").append(Markup.px(LEFT + plotWidth + 20)).append("\" y=\"").append(Markup.px(ly - 9))
                .append("\" width=\"14\" height=\"12\" fill=\"").append(METRIC_COLOURS[m]).append("\"/>\n");
            svg.append(PercentilePlot.text(LEFT + plotWidth + 40, ly + 2, "start", METRICS[m]));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /**
     * @param rough a positive step.
     * @return the smallest 1, 2 or 5 times a power of ten at or above it, so ticks read well.
     */
    static double niceStep(final double rough)
    {
        final double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        for (final double multiple : new double[] {1, 2, 5})
        {
            if (multiple * magnitude >= rough)
            {
                return multiple * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
