package io.ringwatch.perf.peer;

import com.lmax.disruptor.EventHandler;
import io.ringwatch.perf.load.LatencyRecorder;

/**
 * The Disruptor floor's one consumer: per event, what RingWatch's writer, dispatcher and listener
 * do in their simplest form. It records the write's acknowledgement latency (as RingWatch's
 * callback does on its writer thread), looks up the watchers of the key in a table built before
 * the run (an array index, no scan, no hashing), and records the write-to-listener latency once for
 * each of them, reading the clock at each one's turn as a listener called in turn would.
 *
 * <p>Runs on the ring's handler thread only. Allocates nothing per event once that thread has
 * its share of each recorder (its first event).
 */
final class FloorHandler implements EventHandler<FloorEvent>
{
    private final LatencyRecorder[][] watchersByKey;

    /**
     * @param watchersByKey for each key index, the deliveries recorder of every watcher the key
     *                      matches, one entry per watcher; not changed after.
     */
    FloorHandler(final LatencyRecorder[][] watchersByKey)
    {
        this.watchersByKey = watchersByKey;
    }

    @Override
    public void onEvent(final FloorEvent event, final long sequence, final boolean endOfBatch)
    {
        final long intended = event.intendedNanos;
        event.acks.forCurrentThread().record(intended, System.nanoTime());
        final LatencyRecorder[] watchers = watchersByKey[event.keyIndex];
        for (final LatencyRecorder deliveries : watchers)
        {
            deliveries.forCurrentThread().record(intended, System.nanoTime());
        }
    }
}
