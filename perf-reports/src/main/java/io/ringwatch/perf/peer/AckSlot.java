package io.ringwatch.perf.peer;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.perf.load.LatencyRecorder;

import java.util.concurrent.atomic.LongAdder;

/**
 * The pre-allocated callback of one asynchronous write in flight: it carries the write's intended
 * send time to the writer thread, which records the acknowledgement latency and frees the slot.
 * Armed by one producer thread, completed by the engine's writer thread; allocates nothing.
 */
final class AckSlot implements WriteCallback
{
    private final LatencyRecorder acks;
    private final LongAdder failures;
    private long intendedNanos;
    private volatile boolean inFlight;

    AckSlot(final LatencyRecorder acks, final LongAdder failures)
    {
        this.acks = acks;
        this.failures = failures;
    }

    boolean isInFlight()
    {
        return inFlight;
    }

    void arm(final long intended)
    {
        // The publish into the engine's ring orders this before the writer thread reads it.
        intendedNanos = intended;
        inFlight = true;
    }

    @Override
    public void onWritten(final long revision, final boolean succeeded, final long deleted)
    {
        complete();
    }

    @Override
    public void onFailed(final RingWatchException error)
    {
        failures.increment();
        complete();
    }

    private void complete()
    {
        acks.forCurrentThread().record(intendedNanos, System.nanoTime());
        inFlight = false;
    }
}
