package io.ringwatch.perf.report;

import java.util.Arrays;
import java.util.List;

/**
 * The spread of one percentile over repeated runs of a peer ({@code --repeat N}): min, median and
 * max, and which run to plot. Stateless; any thread; allocates its arrays.
 */
public final class Spread
{
    private Spread()
    {
    }

    /**
     * @param runs       the runs of one peer.
     * @param percentile 0 to 100.
     * @return {min, median, max} of that write-to-listener percentile, microseconds (the median of
     *         an even count is the mean of the middle two); NaNs for no runs.
     */
    static double[] of(final List<PeerResult> runs, final double percentile)
    {
        final double[] values = runs.stream().mapToDouble(r -> r.deliveryMicros(percentile)).filter(v -> !Double.isNaN(v))
            .sorted().toArray();
        if (values.length == 0)
        {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        return new double[] {values[0], median(values), values[values.length - 1]};
    }

    /**
     * @param runs the runs of one peer.
     * @return the run whose p99 is the median (the lower middle for an even count): the one to plot.
     */
    public static PeerResult medianRun(final List<PeerResult> runs)
    {
        final PeerResult[] sorted = runs.toArray(new PeerResult[0]);
        Arrays.sort(sorted, (a, b) -> Double.compare(a.deliveryMicros(99), b.deliveryMicros(99)));
        return sorted[(sorted.length - 1) / 2];
    }

    private static double median(final double[] sorted)
    {
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
