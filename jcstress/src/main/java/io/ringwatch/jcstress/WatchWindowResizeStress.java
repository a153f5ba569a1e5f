package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ILI_Result;
import org.openjdk.jcstress.infra.results.ILL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WatchWindow} resizing against a concurrent reader: the writer's append moves the retained events into
 * a new generation of storage while a reader reads one of them. An event held before and after the resize
 * must read exact, never LAPPED (the reader retries on the new generation); an event the resize drops may read
 * exact (from the frozen old generation) or LAPPED, never wrong.
 * <p>
 * Both tests use a window of min 4 / max 8 events whose data ring holds every event's bytes, so only the
 * resize can drop an event, and a {@link SettableNanoClock} that makes the writer actor's one append the one
 * that resizes. Every jcstress instance is used from the jcstress threads only: the state constructor and
 * then the writer actor are the window's writer. Allocates a window, its generations and a record per
 * instance.
 */
public final class WatchWindowResizeStress
{
    private static final int MIN_CAPACITY = 4;
    private static final int MAX_CAPACITY = 8;
    private static final int DATA_BYTES_PER_EVENT = 64;

    private WatchWindowResizeStress()
    {
    }

    /**
     * Growth: the window is full at 4 events (0-3, published) and time stands still, so the writer's append
     * of 4 finds the oldest event fresh and doubles the window to 8, copying 0-3 across. The reader reads the
     * capacity, event 1, the capacity again: r1, r2, r3.
     */
    @JCStressTest
    @Description("WatchWindow growth 4 -> 8 under a reader: an event held throughout reads exact.")
    @Outcome(id = "4, OK, 4", expect = ACCEPTABLE, desc = "The reader finished before the growth.")
    @Outcome(id = "8, OK, 8", expect = ACCEPTABLE, desc = "The reader started after the growth.")
    @Outcome(
        id = "4, OK, 8",
        expect = ACCEPTABLE_INTERESTING,
        desc = "The window grew while the reader read: event 1 still read exact, from either generation.")
    @Outcome(
        expect = FORBIDDEN,
        desc = "Event 1, held before and after the growth, read LAPPED, WRONG (torn or foreign) or "
            + "NOT_PUBLISHED; or the capacity went back from 8 to 4.")
    @State
    public static class Grow
    {
        private final SettableNanoClock clock = new SettableNanoClock();
        private final WatchWindow window = new WatchWindow(
            WindowEvents.config(MIN_CAPACITY, MAX_CAPACITY, DATA_BYTES_PER_EVENT), clock);
        private final EventRecord record = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

        /**
         * Fills the window with events 0-3 at time 0, published. The thread jcstress creates state on.
         *
         * @throws IllegalStateException if the setup did not leave a full window of 4 to grow.
         */
        public Grow()
        {
            WindowEvents.appendAndPublish(window, 0, 3);
            requireCapacity(window, MIN_CAPACITY);
        }

        /**
         * Appends and publishes event 4, still at time 0: the append grows the window. Writer actor thread.
         */
        @Actor
        public void writer()
        {
            WindowEvents.appendAndPublish(window, 4, 4);
        }

        /**
         * Reads the capacity, event 1, the capacity. Reader actor thread.
         *
         * @param result receives them in r1, r2, r3.
         */
        @Actor
        public void reader(final ILI_Result result)
        {
            result.r1 = window.capacity();
            result.r2 = WindowEvents.read(window, 1, record);
            result.r3 = window.capacity();
        }
    }

    /**
     * Shrinking: the window is full at 8 events (0-7, published; it grew from 4 at the fifth) and then time
     * jumps past the freshness, so the writer's append of 8 finds even the newest quarter stale and halves the
     * window to 4: it keeps 4-7, and writing 8 then drops 4. The reader reads the capacity, event 6 (held
     * before and after), then event 2 (dropped by the shrink): r1, r2, r3.
     */
    @JCStressTest
    @Description("WatchWindow shrink 8 -> 4 under a reader: an event held throughout reads exact; a dropped one "
        + "exact or LAPPED.")
    @Outcome(id = "8, OK, OK", expect = ACCEPTABLE, desc = "The reader finished before the shrink.")
    @Outcome(id = "4, OK, LAPPED", expect = ACCEPTABLE, desc = "The reader started after the shrink.")
    @Outcome(
        id = "8, OK, LAPPED",
        expect = ACCEPTABLE_INTERESTING,
        desc = "The window shrank while the reader read: 6 still exact, 2 gone.")
    @Outcome(
        expect = FORBIDDEN,
        desc = "Event 6, held before and after the shrink, read LAPPED, WRONG or NOT_PUBLISHED; event 2 read "
            + "WRONG or NOT_PUBLISHED; or read OK although the reader had already seen the shrunk window.")
    @State
    public static class Shrink
    {
        private final SettableNanoClock clock = new SettableNanoClock();
        private final WatchWindow window = new WatchWindow(
            WindowEvents.config(MIN_CAPACITY, MAX_CAPACITY, DATA_BYTES_PER_EVENT), clock);
        private final EventRecord record = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

        /**
         * Fills the window to 8 events at time 0, published, then moves the clock past the freshness. The
         * thread jcstress creates state on.
         *
         * @throws IllegalStateException if the setup did not leave a full window of 8 to shrink.
         */
        public Shrink()
        {
            WindowEvents.appendAndPublish(window, 0, 7);
            requireCapacity(window, MAX_CAPACITY);
            clock.set(10 * WindowEvents.FRESHNESS_NANOS);
        }

        /**
         * Appends and publishes event 8, long after the others: the append shrinks the window. Writer actor
         * thread.
         */
        @Actor
        public void writer()
        {
            WindowEvents.appendAndPublish(window, 8, 8);
        }

        /**
         * Reads the capacity, event 6, event 2. Reader actor thread.
         *
         * @param result receives them in r1, r2, r3.
         */
        @Actor
        public void reader(final ILL_Result result)
        {
            result.r1 = window.capacity();
            result.r2 = WindowEvents.read(window, 6, record);
            result.r3 = WindowEvents.read(window, 2, record);
        }
    }

    private static void requireCapacity(final WatchWindow window, final int capacity)
    {
        // Guards the test's premise: without it a changed resize rule would quietly test nothing.
        if (window.capacity() != capacity || window.oldestSequence() != 0)
        {
            throw new IllegalStateException("setup expected a full window of " + capacity + " from sequence 0, got "
                + window.capacity() + " from " + window.oldestSequence());
        }
    }
}
