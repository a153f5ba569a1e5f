package io.ringwatch.jcstress;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;

/**
 * A {@link WatchListener} that records the one-byte values of the events handed to it as a {@link DigitTrace}
 * ("12" = the value 1, then the value 2), and the cancellation if one arrives. The engine-level tests write
 * the values 1 and 2; anything else (another length, another byte) is recorded as
 * {@link DigitTrace#NEVER_OFFERED}.
 * <p>
 * Called by one thread at a time (the listener contract); a test that reads it from another thread does so
 * after a happens-before edge of its own (jcstress's arbiter, or the watcher's own hand-off). Allocates
 * nothing.
 */
final class ValueTrace implements WatchListener
{
    private static final int LAST_VALUE = 2;

    private int trace;
    private int events;
    private WatchCancellation cancellation;

    /**
     * The one-byte value for a write of the tests. Any thread; allocates the array.
     *
     * @param value 1 or 2.
     * @return the value bytes.
     */
    static byte[] value(final int value)
    {
        return new byte[] {(byte)value};
    }

    /**
     * Appends each event's value to the trace. The watcher's consumer thread.
     *
     * @param batch the events.
     */
    @Override
    public void onEvents(final EventBatch batch)
    {
        for (int i = 0; i < batch.size(); i++)
        {
            final WatchEvent event = batch.get(i);
            final int value = event.valueLength() == 1 ? event.valueBuffer().getByte(0) : DigitTrace.NEVER_OFFERED;
            trace = DigitTrace.append(trace, value, LAST_VALUE);
            events++;
        }
    }

    /**
     * Keeps the cancellation. The watcher's consumer thread.
     *
     * @param cancellation why the watch ended.
     */
    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
    }

    /**
     * @return the values seen, as digits; 0 for none.
     */
    int trace()
    {
        return trace;
    }

    /**
     * @return how many events were seen.
     */
    int events()
    {
        return events;
    }

    /**
     * @return the cancellation, or null if none arrived.
     */
    WatchCancellation cancellation()
    {
        return cancellation;
    }
}
