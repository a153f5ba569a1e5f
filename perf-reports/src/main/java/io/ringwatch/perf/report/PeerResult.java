package io.ringwatch.perf.report;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * What one peer did in one run: the measured latency histograms (nanoseconds, measured phase
 * only), the counts, and the rates achieved. Rates are measured-phase counts divided by the time
 * from the start of the measured phase until the last of them completed. Immutable once built
 * (the histograms must not be changed after); thread-safe to read.
 *
 * @param peer               the peer's short name.
 * @param description        how the peer was configured.
 * @param targetRate         writes per second asked for.
 * @param writes             writes sent, warm-up included.
 * @param measuredWrites     writes scheduled in the measured phase.
 * @param watchers           watchers started.
 * @param watchersPerWrite   watchers each write reaches.
 * @param expectedDeliveries events the watchers should receive, warm-up included.
 * @param deliveries         events the watchers received, warm-up included.
 * @param deliveryLatency    write-to-listener latency: listener receive time minus intended send time.
 * @param ackLatency         write acknowledgement time minus intended send time.
 * @param sendLag            actual send time minus intended send time (the producers' own delay).
 * @param sendRate           measured writes sent per second.
 * @param ackRate            measured writes acknowledged per second.
 * @param deliveryRate       measured events delivered per second, over all watchers.
 * @param drained            true when every write was acknowledged and every event delivered.
 * @param failedWrites       writes the peer refused or failed.
 * @param cancellations      watches that ended early, by reason.
 * @param notes              anything the reader must know about this peer's run.
 * @param timeline           write-to-listener latency per second of the measured phase, in order.
 * @param activity           the JVM's garbage collections and CPU time during the run.
 */
public record PeerResult(
    String peer,
    String description,
    long targetRate,
    long writes,
    long measuredWrites,
    int watchers,
    int watchersPerWrite,
    long expectedDeliveries,
    long deliveries,
    Histogram deliveryLatency,
    Histogram ackLatency,
    Histogram sendLag,
    double sendRate,
    double ackRate,
    double deliveryRate,
    boolean drained,
    long failedWrites,
    Map<String, Long> cancellations,
    List<String> notes,
    List<TimelinePoint> timeline,
    RunActivity activity)
{
    /**
     * A result without a timeline or JVM activity (tests; peers measured without monitoring).
     *
     * @param peer               the peer's short name.
     * @param description        how the peer was configured.
     * @param targetRate         writes per second asked for.
     * @param writes             writes sent, warm-up included.
     * @param measuredWrites     writes scheduled in the measured phase.
     * @param watchers           watchers started.
     * @param watchersPerWrite   watchers each write reaches.
     * @param expectedDeliveries events the watchers should receive, warm-up included.
     * @param deliveries         events the watchers received, warm-up included.
     * @param deliveryLatency    write-to-listener latency.
     * @param ackLatency         write acknowledgement latency.
     * @param sendLag            the producers' own delay.
     * @param sendRate           measured writes sent per second.
     * @param ackRate            measured writes acknowledged per second.
     * @param deliveryRate       measured events delivered per second.
     * @param drained            true when everything arrived.
     * @param failedWrites       writes the peer refused or failed.
     * @param cancellations      watches that ended early, by reason.
     * @param notes              anything the reader must know.
     */
    public PeerResult(
        final String peer, final String description, final long targetRate, final long writes, final long measuredWrites,
        final int watchers, final int watchersPerWrite, final long expectedDeliveries, final long deliveries,
        final Histogram deliveryLatency, final Histogram ackLatency, final Histogram sendLag, final double sendRate,
        final double ackRate, final double deliveryRate, final boolean drained, final long failedWrites,
        final Map<String, Long> cancellations, final List<String> notes)
    {
        this(peer, description, targetRate, writes, measuredWrites, watchers, watchersPerWrite, expectedDeliveries, deliveries,
            deliveryLatency, ackLatency, sendLag, sendRate, ackRate, deliveryRate, drained, failedWrites, cancellations, notes,
            List.of(), RunActivity.NONE);
    }

    /**
     * @param percentile 0 to 100.
     * @return the write-to-listener latency at that percentile, in microseconds.
     */
    public double deliveryMicros(final double percentile)
    {
        return micros(deliveryLatency, percentile);
    }

    /**
     * @param percentile 0 to 100.
     * @return the write-ack latency at that percentile, in microseconds.
     */
    public double ackMicros(final double percentile)
    {
        return micros(ackLatency, percentile);
    }

    static double micros(final Histogram histogram, final double percentile)
    {
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
