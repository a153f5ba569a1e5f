package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JLJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Visibility of {@link WatchWindow#publishedSequence()}: a reader that sees sequence {@code s} published and
 * then reads {@code s} gets READ_OK with exactly that event, and {@link WatchWindow#publishedRevision()} read
 * after it is at least {@code s}'s revision.
 * <p>
 * A window fixed at 4 events, built full with events 0-3 published, so each of the writer's appends reuses a
 * slot still holding an older event: a reader that saw the cursor but not the slot written before it would
 * get LAPPED (the old sequence in the slot) or WRONG. The writer appends and publishes 4, then 5. The reader
 * reads the published sequence (r1), reads that event (r2), then reads the published revision (r3). Event
 * {@code s} has revision {@code s + 1}.
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the state constructor and then the writer
 * actor are the window's writer. Allocates one window and one record per instance.
 */
@JCStressTest
@Description("WatchWindow published cursor: seeing sequence s published means reading s gives that exact "
    + "event, and the published revision is at least s's.")
@Outcome(id = "3, OK, 4", expect = ACCEPTABLE, desc = "The reader ran before the writer published anything.")
@Outcome(id = "5, OK, 6", expect = ACCEPTABLE, desc = "The reader ran after both publications.")
@Outcome(
    id = "(3, OK, [56]|4, OK, [56])",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The race: the reader ran between the writer's two publications, or the writer published again "
        + "between the reader's read of the cursor and its read of the revision.")
@Outcome(
    expect = FORBIDDEN,
    desc = "The cursor seen but the event not: LAPPED, WRONG or NOT_PUBLISHED for a sequence seen "
        + "published; or a published revision older than the published sequence's event.")
@State
public class WatchWindowPublishedCursorStress
{
    private final WatchWindow window =
        new WatchWindow(WindowEvents.config(4, 4, 64), new SettableNanoClock());
    private final EventRecord record = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

    /**
     * Fills the window with events 0-3, published. The thread jcstress creates state on, as the window's
     * writer until the writer actor takes over.
     */
    public WatchWindowPublishedCursorStress()
    {
        WindowEvents.appendAndPublish(window, 0, 3);
    }

    /**
     * Appends and publishes 4, then 5. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        WindowEvents.appendAndPublish(window, 4, 4);
        WindowEvents.appendAndPublish(window, 5, 5);
    }

    /**
     * Reads the published sequence, that event, then the published revision. Reader actor thread.
     *
     * @param result receives them in r1, r2, r3.
     */
    @Actor
    public void reader(final JLJ_Result result)
    {
        final long published = window.publishedSequence();
        result.r1 = published;
        result.r2 = WindowEvents.read(window, published, record);
        result.r3 = window.publishedRevision();
    }
}
