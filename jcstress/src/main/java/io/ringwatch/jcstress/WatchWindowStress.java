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
 * {@link WatchWindow} publication: a reader reading while the writer appends and publishes gets either
 * "not published" or the whole, exact event; events published together become visible together; an appended
 * but unpublished event is never read.
 * <p>
 * A window of 4 events (no resize, no lapping: 4 events are appended and their bytes fit the data ring). The
 * writer appends event 0 and publishes; appends 1 and 2 and publishes them together; appends 3 and never
 * publishes it. Every event's value bytes and metadata follow from its revision ({@link WindowEvents}). The
 * reader reads 2, then 1, then 3: r1, r2, r3 name what each read got.
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the writer actor is the window's writer.
 * Allocates one window and one record per instance.
 */
@JCStressTest
@Description("WatchWindow publication: a read returns a whole event or NOT_PUBLISHED, a batch appears at once, "
    + "an unpublished append stays unreadable.")
@Outcome(
    id = "NOT_PUBLISHED, NOT_PUBLISHED, NOT_PUBLISHED",
    expect = ACCEPTABLE,
    desc = "The reader finished before the batch 1-2 was published.")
@Outcome(
    id = "OK, OK, NOT_PUBLISHED",
    expect = ACCEPTABLE,
    desc = "The batch was published before the reader started: both events exact; 3 still unpublished.")
@Outcome(
    id = "NOT_PUBLISHED, OK, NOT_PUBLISHED",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The batch was published between the reads of 2 and 1.")
@Outcome(
    expect = FORBIDDEN,
    desc = "WRONG: READ_OK with bytes or metadata not of that event (torn, mixed); event 3 read although "
        + "never published; 2 seen but not 1 of the same batch; LAPPED in a window that is never lapped.")
@State
public class WatchWindowStress
{
    private final WatchWindow window =
        new WatchWindow(WindowEvents.config(4, 4, 64), new SettableNanoClock());
    private final EventRecord record = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

    /**
     * Appends and publishes 0, then 1 and 2 together, then appends 3 without publishing. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        WindowEvents.appendAndPublish(window, 0, 0);
        WindowEvents.appendAndPublish(window, 1, 2);
        WindowEvents.append(window, 3);
    }

    /**
     * Reads 2, 1 and 3. Reader actor thread.
     *
     * @param result receives what each read got, in that order.
     */
    @Actor
    public void reader(final LLL_Result result)
    {
        result.r1 = WindowEvents.read(window, 2, record);
        result.r2 = WindowEvents.read(window, 1, record);
        result.r3 = WindowEvents.read(window, 3, record);
    }
}
