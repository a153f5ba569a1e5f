package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.internal.read.PinnedRead;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The pin handshake with one full fence per flush group: a {@link PinnedRead} (pin, then the
 * {@link RevisionCursor}'s bound, then a scan, {@link PinnedRead#awaitScanned()} and the pre-images)
 * against a writer that applies revisions 2 to 25 in six flush groups of four, as
 * {@code RevisionApplier} does: {@link RevisionCursor#announce} once before a group's first index
 * change, then per revision the index change and {@link UndoLog#onRevision}, and at the group's end
 * {@link RevisionCursor#markEnded} and {@code markApplied}. The key {@code "k"} holds value R with
 * modRevision R after revision R (the index is one {@link AtomicLong}, as the reader's scan sees
 * it), so the state a read pinned at r must find is r: the scanned value when it is at most r, else
 * the first pre-image after r. The forbidden outcome is a read exact at a revision r older than a
 * revision whose pre-image the writer did not keep for it (it finds neither). r1: 1 when the read
 * found the state at its revision, 0 when not, 2 for a budget failure (the budget holds every
 * entry); r2: 1 when the writer had changed the key after the read's revision by the scan (the
 * pre-image was needed).
 *
 * <p>In the jcstress module but in the writer's package: the writer's side of the cursor is
 * package-private. Each instance allocates an undo log with 256-byte segments and a change record.
 * A quick run on 2 cores: 157,244 samples, 1,573 {@code 1, 1}, none forbidden. Planted bugs, each
 * found ({@code 0, 1}) in one quick run: the announcement as a release store instead of a volatile
 * one (3 of 142,140 samples); the bound taken as the announced group's first revision instead of
 * its end (94,465 of 131,136); the announcement after the group's first index change (236 of
 * 141,845).
 */
@JCStressTest
@Description("One full fence per flush group: a read pinned concurrently is exact at its revision, never older than a "
    + "revision whose pre-image the writer did not keep for it.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "Exact; the key was not changed after the read's revision by its scan.")
@Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "Exact through the pre-image the writer kept for the pin.")
@Outcome(expect = FORBIDDEN, desc = "The read's revision is older than a change whose pre-image was not kept, or a budget failure.")
@State
public class FlushGroupPinStress
{
    private static final int GROUPS = 6;
    private static final int GROUP = 4;

    private final RevisionCursor cursor = new RevisionCursor(1);
    private final UndoLog undo = new UndoLog(16384, 64, 256);
    /** The index entry of {@code "k"}: its value and modRevision. */
    private final AtomicLong live = new AtomicLong(1);
    private final ChangeRecord changes = new ChangeRecord();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[] {'k'});
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer previous = new UnsafeBuffer(new byte[8]);

    /**
     * Applies revisions 2 to 25 in six flush groups. Writer actor thread, the cursor's and the
     * log's writer.
     */
    @Actor
    public void writer()
    {
        long revision = 1;
        for (int group = 0; group < GROUPS; group++)
        {
            for (int i = 0; i < GROUP; i++)
            {
                final long next = revision + 1;
                undo.beginRevision();
                if (i == 0)
                {
                    cursor.announce(next);
                }
                live.setRelease(next);
                value.putLong(0, next);
                previous.putLong(0, revision);
                changes.clear();
                changes.add(EventType.PUT, key, 0, 1, value, 0, 8, 1, next, next, previous, 0, 8, 1, revision, revision);
                undo.onRevision(next, changes);
                revision = next;
            }
            cursor.markEnded(revision);
            cursor.markApplied(revision);
        }
    }

    /**
     * Reads {@code "k"} pinned, as a range read does. Reader actor thread.
     *
     * @param result r1: the verdict; r2: whether the pre-image was needed.
     */
    @Actor
    public void reader(final II_Result result)
    {
        try (PinnedRead read = PinnedRead.open(undo, cursor))
        {
            final long at = read.revision();
            final long scanned = live.getAcquire();
            read.awaitScanned();
            final long[] first = {-1};
            read.undoneSince(null, (buffer, keyOffset, keyLength, valueOffset, valueLength, createRevision, modRevision,
                version, lease) ->
            {
                if (first[0] == -1)
                {
                    first[0] = valueLength == 8 && modRevision == buffer.getLong(valueOffset) ? modRevision : -2;
                }
            });
            final long state = first[0] != -1 ? first[0] : scanned <= at ? scanned : -1;
            result.r1 = state == at ? 1 : 0;
            result.r2 = scanned > at ? 1 : 0;
        }
        catch (final ReadBudgetExceededException e)
        {
            result.r1 = 2;
        }
    }
}
