package io.ringwatch.jcstress;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link UndoLog}: a pinned reader's scan gives the writer segments ({@link UndoLog#pass}, which
 * allocates one while the writer has fewer than four spare) while the writer fills them, recycles
 * them and, once no read is pinned, frees the spare ones. The writer starts with no segment at all,
 * so most of those it fills are the reader's. As in {@code UndoLogPinStress}: key {@code "k"} holds
 * value r after revision r, overwritten at revisions 2 to 120 (long enough for the reader to give
 * segments while the writer still needs them), and each revision creates a key; segments hold two
 * entries, so each revision fills one. Each read claims a pin, reads the bound P, pins at P,
 * reports its progress (a key before every key written, so nothing is skipped) three times, reads
 * the recorded revision R and then the pre-images after P, and checks that the first of {@code "k"}
 * (if the writer got past P) is exactly the state at P, whole, and that the key created in each
 * revision after P up to R is there (absent at P): a segment used twice loses the entries it held
 * first. 1 for right, 0 for a wrong, torn or missing pre-image, 2 for a budget failure (the budget
 * holds every entry; it must not happen).
 *
 * <p>Each instance allocates an undo log with 256-byte segments and a change record.
 */
@JCStressTest
@Description("UndoLog segments a reader gives the writer vs. the writer filling and recycling them: a pinned reader's "
    + "pre-images after its pin are all there and the first is exactly the state at its pin.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both reads saw the state at their pin (or nothing after it yet).")
@Outcome(expect = FORBIDDEN, desc = "A pre-image missing, torn, overwritten in a segment used twice, or a budget failure.")
@State
public class UndoLogDonationStress
{
    private static final int FIRST = 2;
    private static final int LAST = 120;
    private static final byte[] BEFORE_EVERY_KEY = {0};

    private final UndoLog undo = new UndoLog(1 << 16, 64, 256);
    private final AtomicLong applying = new AtomicLong(1);
    private final ChangeRecord changes = new ChangeRecord();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[] {'k'});
    private final UnsafeBuffer created = new UnsafeBuffer(new byte[] {'n', 0});
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer previous = new UnsafeBuffer(new byte[8]);

    /**
     * Writes revisions 2 to 120. Writer actor thread, the log's writer.
     */
    @Actor
    public void writer()
    {
        for (long revision = FIRST; revision <= LAST; revision++)
        {
            applying.set(revision);
            value.putLong(0, revision);
            previous.putLong(0, revision - 1);
            undo.beginRevision();
            changes.clear();
            changes.add(EventType.PUT, key, 0, 1, value, 0, 8, 1, revision, revision,
                previous, 0, 8, 1, revision - 1, revision - 1);
            created.putByte(1, (byte)revision);
            changes.add(EventType.PUT, created, 0, 2, value, 0, 8, revision, revision, 1, null, 0, 0, 0, 0, 0);
            undo.onRevision(revision, changes);
        }
    }

    /**
     * Pins, gives segments, reads, unpins, twice. Reader actor thread.
     *
     * @param result r1, r2: the verdicts of the first and the second read.
     */
    @Actor
    public void reader(final II_Result result)
    {
        result.r1 = readPinned();
        result.r2 = readPinned();
    }

    private int readPinned()
    {
        final int slot = undo.pin();
        try
        {
            final long pinned = applying.get();
            undo.pinAt(slot, pinned);
            for (int i = 0; i < 3; i++)
            {
                undo.pass(slot, BEFORE_EVERY_KEY);
            }
            final long recorded = undo.recordedRevision();
            final long[] first = {-1, -1, -1, -1};
            final boolean[] createdAbsent = new boolean[LAST + 1];
            undo.readSince(pinned, null, new ExpandableArrayBuffer(256),
                (buffer, keyOffset, keyLength, valueOffset, valueLength, createRevision, modRevision, version, lease) ->
                {
                    if (first[0] == -1 && keyLength == 1)
                    {
                        first[0] = valueLength == 8 ? buffer.getLong(valueOffset) : -2;
                        first[1] = modRevision;
                        first[2] = version;
                        first[3] = createRevision;
                    }
                    if (keyLength == 2 && valueLength < 0)
                    {
                        createdAbsent[buffer.getByte(keyOffset + 1)] = true;
                    }
                });
            for (long revision = pinned + 1; revision <= recorded; revision++)
            {
                if (!createdAbsent[(int)revision])
                {
                    return 0;
                }
            }
            if (first[0] == -1)
            {
                return 1;
            }
            return first[0] == pinned && first[1] == pinned && first[2] == pinned && first[3] == 1 ? 1 : 0;
        }
        catch (final ReadBudgetExceededException e)
        {
            return 2;
        }
        finally
        {
            undo.unpin(slot);
        }
    }
}
