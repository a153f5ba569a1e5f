package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WatchWindow} lapping: a reader of an old event while the writer overwrites it gets the exact event or
 * LAPPED, never a torn or foreign one, and once lapped it stays lapped.
 * <p>
 * A window fixed at 4 events (min = max) with a 128-byte data ring, built full with events 0-3 published.
 * The writer appends and publishes 4, 5, 6, 7 one by one: appending 5 overwrites the slot of 1, and
 * appending 7 wraps the data ring over 1's bytes. The reader reads 1, then 5, then 1 again: r1, r2, r3.
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the writer actor is the window's writer.
 * Allocates one window and one record per instance.
 */
@JCStressTest
@Description("WatchWindow lapping: an old event reads exact or LAPPED while the writer laps it; seeing its "
    + "successor in the slot published means LAPPED from then on.")
@Outcome(
    id = "OK, NOT_PUBLISHED, OK",
    expect = ACCEPTABLE,
    desc = "The reader finished before the writer began to overwrite event 1.")
@Outcome(
    id = "LAPPED, OK, LAPPED",
    expect = ACCEPTABLE,
    desc = "Event 1 was already overwritten when the reader started.")
@Outcome(
    id = "(OK, NOT_PUBLISHED|OK, OK|LAPPED, NOT_PUBLISHED), LAPPED",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The writer lapped event 1 while the reader read: it saw the event, then LAPPED.")
@Outcome(
    expect = FORBIDDEN,
    desc = "WRONG: READ_OK with bytes or metadata not of that event (a torn or foreign slot trusted); event 1 "
        + "read OK after event 5, which overwrote it, was seen published, or after it was once LAPPED; "
        + "NOT_PUBLISHED for the published event 1.")
@State
public class WatchWindowLappingStress
{
    private final WatchWindow window =
        new WatchWindow(WindowEvents.config(4, 4, 16), new SettableNanoClock());
    private final EventRecord record = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

    /**
     * Fills the window with events 0-3, published. Runs before the actors, on the thread jcstress creates
     * state on, as the window's writer until the writer actor takes over.
     */
    public WatchWindowLappingStress()
    {
        WindowEvents.appendAndPublish(window, 0, 3);
    }

    /**
     * Appends and publishes 4, 5, 6 and 7, one at a time. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        for (long sequence = 4; sequence <= 7; sequence++)
        {
            WindowEvents.appendAndPublish(window, sequence, sequence);
        }
    }

    /**
     * Reads 1, then 5, then 1 again. Reader actor thread.
     *
     * @param result receives what each read got, in that order.
     */
    @Actor
    public void reader(final LLL_Result result)
    {
        result.r1 = WindowEvents.read(window, 1, record);
        result.r2 = WindowEvents.read(window, 5, record);
        result.r3 = WindowEvents.read(window, 1, record);
    }
}
