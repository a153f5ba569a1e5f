package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.PaddedSequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JI_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link PaddedSequence#set(long)} (release) publishes the plain writes made before it to a thread that reads
 * the new value with {@link PaddedSequence#get()} (acquire): the way the watch window's writer publishes an
 * event and a reader consumes it.
 * <p>
 * The writer stores a plain payload, then sets the sequence to 1; the reader reads the sequence, then the
 * payload. r1: the sequence the reader saw; r2: the payload it saw.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates one sequence per instance.
 */
@JCStressTest
@Description("PaddedSequence release/acquire: a reader that sees the published sequence sees the payload "
    + "written before it.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader ran before the writer published.")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "The reader saw the published sequence and its payload.")
@Outcome(
    id = "0, 42",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The reader missed the sequence but then saw the payload: allowed, the payload is only promised "
        + "to readers that saw the sequence.")
@Outcome(
    id = "1, 0",
    expect = FORBIDDEN,
    desc = "The reader saw the sequence published but not the payload written before it.")
@State
public class PaddedSequencePublicationStress
{
    private static final int PAYLOAD = 42;
    private static final long PUBLISHED = 1;

    private final PaddedSequence sequence = new PaddedSequence(0);
    // Plain on purpose: only the sequence's release/acquire pair may order it.
    private int payload;

    /**
     * Writes the payload, then publishes the sequence. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        payload = PAYLOAD;
        sequence.set(PUBLISHED);
    }

    /**
     * Reads the sequence, then the payload. Reader actor thread.
     *
     * @param result receives the sequence in r1 and the payload in r2.
     */
    @Actor
    public void reader(final JI_Result result)
    {
        result.r1 = sequence.get();
        result.r2 = payload;
    }
}
