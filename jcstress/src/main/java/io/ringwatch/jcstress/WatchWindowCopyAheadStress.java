package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WatchWindow#copyAhead(int)} (the housekeeper copying the published events into the generation
 * {@link WatchWindow#prepareGrowth()} built) racing the writer's append that grows the window into that
 * generation, and a reader. The window (min 4, max 8 events) holds 0-3, published, all at one instant, and
 * the doubled generation is built but empty: the writer's append of 4 doubles it, taking the prepared
 * generation and copying what the copier has not, or building its own when the copier holds the prepared one
 * at that moment; the copier copies 0-3 unless the writer took the generation or switched first, then reads
 * events 1 and 3, held throughout, from whichever generation is current; after both, the arbiter reads every
 * event 0-4.
 * <p>
 * Checked against a planted bug: the writer taking the prepared generation while the copier holds it (so
 * both write it at once); see the module README for how it failed. Allocates a window, its generations
 * and two records per instance.
 */
@JCStressTest
@Description("WatchWindow copy ahead vs the growth that takes the prepared generation vs a reader: every event "
    + "held reads exact, whoever copied it.")
@Outcome(
    id = "4, OK, OK, PREPARED 0",
    expect = ACCEPTABLE,
    desc = "The copier copied 0-3 before the growth; the writer copied none of them.")
@Outcome(
    id = "0, OK, OK, PREPARED 4",
    expect = ACCEPTABLE,
    desc = "The growth took the generation before the copier: the writer copied 0-3; the copier stopped.")
@Outcome(
    id = "4, OK, OK, FRESH 4",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The copier held the generation when the writer grew: the writer built its own and copied 0-3.")
@Outcome(
    expect = FORBIDDEN,
    desc = "An event held throughout read LAPPED, WRONG (torn or mixed) or NOT_PUBLISHED, by the reader or "
        + "the arbiter (BROKEN); the window not doubled; the copier copying part of 0-3 or into a generation "
        + "the writer did not take while it did not hold it.")
@State
public class WatchWindowCopyAheadStress
{
    private static final int MIN_CAPACITY = 4;
    private static final int MAX_CAPACITY = 8;
    private static final int DATA_BYTES_PER_EVENT = 64;
    private static final int LAST_SEQUENCE = 4;

    private final WatchWindow window = new WatchWindow(
        WindowEvents.config(MIN_CAPACITY, MAX_CAPACITY, DATA_BYTES_PER_EVENT), new SettableNanoClock());
    private final EventRecord readerRecord = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);
    private final EventRecord arbiterRecord = new EventRecord(WindowEvents.RECORD_BUFFER_BYTES);

    /**
     * Appends 0-2 (half full at once: the writer asks for 8), builds the doubled generation, appends 3: a
     * full window of 4 whose next append grows it. The thread jcstress creates state on.
     *
     * @throws IllegalStateException if the setup did not leave that window and a prepared generation.
     */
    public WatchWindowCopyAheadStress()
    {
        WindowEvents.appendAndPublish(window, 0, 2);
        // Guards the test's premise: without it a changed rule would quietly test nothing.
        if (!window.prepareGrowth())
        {
            throw new IllegalStateException("setup expected the window to ask for the doubled generation");
        }
        WindowEvents.appendAndPublish(window, 3, 3);
        if (window.capacity() != MIN_CAPACITY)
        {
            throw new IllegalStateException("setup expected a full window of 4, got " + window.capacity());
        }
    }

    /**
     * Appends and publishes event 4: the append doubles the window. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        WindowEvents.appendAndPublish(window, LAST_SEQUENCE, LAST_SEQUENCE);
    }

    /**
     * Copies ahead, as the housekeeper does, then reads events 1 and 3 as a watcher would, while the growth
     * may be switching to the generation just copied into. Copier and reader actor thread (one thread for
     * both, so that the test runs on two CPUs).
     *
     * @param result receives the number of events copied in r1, the reads in r2 and r3.
     */
    @Actor
    public void copierThenReader(final LLLL_Result result)
    {
        result.r1 = window.copyAhead(2 * MAX_CAPACITY);
        result.r2 = WindowEvents.read(window, 1, readerRecord);
        result.r3 = WindowEvents.read(window, 3, readerRecord);
    }

    /**
     * Reads every event and how the growth went, after all actors.
     *
     * @param result receives PREPARED or FRESH and the events the writer copied, or BROKEN, in r4.
     */
    @Arbiter
    public void arbiter(final LLLL_Result result)
    {
        for (long sequence = 0; sequence <= LAST_SEQUENCE; sequence++)
        {
            final String read = WindowEvents.read(window, sequence, arbiterRecord);
            if (!WindowEvents.OK.equals(read))
            {
                result.r4 = "BROKEN " + sequence + " " + read;
                return;
            }
        }
        if (window.capacity() != MAX_CAPACITY)
        {
            result.r4 = "BROKEN capacity " + window.capacity();
            return;
        }
        result.r4 = (window.preparedGrowthCount() == 1 ? "PREPARED " : "FRESH ") + window.growthCopyCount();
    }
}
