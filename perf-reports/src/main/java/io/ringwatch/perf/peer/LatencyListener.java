package io.ringwatch.perf.peer;

import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.ThreadLatency;
import io.ringwatch.perf.load.ValueCodec;

/**
 * A RingWatch listener that records, for each event, the time from the write's intended send time
 * (carried in its value) to the moment the batch reached the listener. Stateless apart from its
 * sinks, so one instance can serve any number of watchers on any threads; records into the
 * calling thread's share of the recorder. Allocates nothing per event.
 */
final class LatencyListener implements WatchListener
{
    private final LatencyRecorder deliveries;
    private final CancellationTally cancellations;

    LatencyListener(final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        this.deliveries = deliveries;
        this.cancellations = cancellations;
    }

    @Override
    public void onEvents(final EventBatch events)
    {
        final long now = System.nanoTime();
        final ThreadLatency latency = deliveries.forCurrentThread();
        for (int i = 0, size = events.size(); i < size; i++)
        {
            latency.record(ValueCodec.intendedNanos(events.get(i).valueBuffer()), now);
        }
    }

    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        final CancelReason reason = cancellation.reason();
        if (reason != CancelReason.ENGINE_CLOSED && reason != CancelReason.CANCELLED_BY_CLIENT)
        {
            cancellations.add(reason.name());
        }
    }
}
