package io.ringwatch.jcstress;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;

/**
 * A {@link WatchListener} that records the one-byte values 1 to 3 of the events handed to it as a
 * {@link DigitTrace} ("123" = 1, then 2, then 3), and the cancellation if one arrives. Anything else (another
 * length, another byte) is recorded as {@link DigitTrace#NEVER_OFFERED}.
 * <p>
 * Called by one thread at a time (the listener contract); its fields are volatile because a push test watches
 * the count from an actor thread while the engine's delivery thread writes it. Allocates nothing.
 */
final class HandOverTrace implements WatchListener
{
    /** The largest value the tests write. */
    static final int LAST_VALUE = 3;

    private volatile int trace;
    private volatile int events;
    private volatile WatchCancellation cancellation;

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
            // One consumer at a time calls a listener, so the read-modify-writes do not race.
            trace = DigitTrace.append(trace, value, LAST_VALUE);
            events = events + 1;
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
     * @return the values seen, as digits; 0 for none. Any thread.
     */
    int trace()
    {
        return trace;
    }

    /**
     * @return how many events were seen. Any thread.
     */
    int events()
    {
        return events;
    }

    /**
     * @return true once the watch has ended and said so. Any thread.
     */
    boolean ended()
    {
        return cancellation != null;
    }

    /**
     * How the watch stands, as a test outcome. Any thread; allocates nothing.
     *
     * @param arrived false when the events did not arrive within the test's bound.
     * @return "STUCK" when they did not, the reason the watch ended if it did, else "LIVE".
     */
    String status(final boolean arrived)
    {
        final WatchCancellation ending = cancellation;
        return !arrived ? "STUCK" : ending == null ? "LIVE" : ending.reason().name();
    }
}
