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
 * {@link UndoLog}: a reader pins and unpins twice while the writer records and recycles
 * segments. The key {@code "k"} holds value r (8 bytes) after revision r; the writer overwrites
 * it at revisions 2 to 25, raising its bound before each revision as the engine's writer does
 * at one command per batch (a flush group per revision: {@code FlushGroupPinStress} has longer
 * groups), so every pre-image of revision r is value r - 1 with modRevision r - 1;
 * each revision also creates a key, which a pinned read always keeps. Segments hold four entries,
 * so the writer recycles segments (when the reader unpins, or a segment fills and holds nothing
 * after the pin) while the reader may be reading them, and once no read is pinned frees the spare
 * segments beyond four (a use after free would crash or read garbage). Each read claims a pin,
 * reads the bound P, pins at P, reads the pre-images after P, and checks that the first of
 * {@code "k"} (if the writer got past P) is exactly the state at P, whole: value P, modRevision
 * P, version P. 1 for right, 0 for a wrong or torn pre-image, 2 for a budget failure (the budget
 * holds every entry; it must not happen).
 *
 * <p>Each instance allocates an undo log with 256-byte segments and a change record.
 */
@JCStressTest
@Description("UndoLog pin/unpin vs. the writer recording and recycling: a pinned reader's first pre-image after its pin "
    + "is exactly the state at its pin, never torn, never recycled under it.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both reads saw the state at their pin (or nothing after it yet).")
@Outcome(expect = FORBIDDEN, desc = "A pre-image missing, torn, recycled while pinned, or a budget failure.")
@State
public class UndoLogPinStress
{
    private static final int FIRST = 2;
    private static final int LAST = 25;

    private final UndoLog undo = new UndoLog(4096, 64, 256);
    private final AtomicLong applying = new AtomicLong(1);
    private final ChangeRecord changes = new ChangeRecord();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[] {'k'});
    private final UnsafeBuffer created = new UnsafeBuffer(new byte[] {'n', 0});
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer previous = new UnsafeBuffer(new byte[8]);

    /**
     * Writes revisions 2 to 25. Writer actor thread, the log's writer.
     */
    @Actor
    public void writer()
    {
        for (long revision = FIRST; revision <= LAST; revision++)
        {
            applying.set(revision);
            value.putLong(0, revision);
            previous.putLong(0, revision - 1);
            changes.clear();
            changes.add(EventType.PUT, key, 0, 1, value, 0, 8, 1, revision, revision,
                previous, 0, 8, 1, revision - 1, revision - 1);
            // A key created in every revision: always kept while pinned, so segments fill and recycle.
            created.putByte(1, (byte)revision);
            changes.add(EventType.PUT, created, 0, 2, value, 0, 8, revision, revision, 1, null, 0, 0, 0, 0, 0);
            undo.onRevision(revision, changes);
        }
    }

    /**
     * Pins, reads, unpins, twice: the first unpin lets the writer recycle while the second pin
     * begins. Reader actor thread.
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
            final long[] first = {-1, -1, -1, -1};
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
                });
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
