package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.nio.charset.StandardCharsets;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link UndoLog}: a pinned reader's scan reports the key it has passed while the writer changes
 * that key. A read pinned at revision 1 sees key {@code "k"} (modRevision 1 at the pin); the
 * writer changes it at revision 3, looking at the passed keys ({@link UndoLog#beginRevision()})
 * before it writes the key (here a volatile field standing for the index's node) and keeping
 * pre-images at the revision's end ({@link UndoLog#onRevision}) as the engine's writer does. The
 * reader reads the key, then passes it. Afterwards the arbiter merges as a live scan does: the
 * scanned version wins when it is no newer than the pin, otherwise the key's oldest pre-image must
 * be there and be the state at the pin. A writer that looked at the passed key after changing the
 * key could skip the pre-image of a change the reader saw: forbidden.
 *
 * <p>r1: 1 when the merged state of {@code "k"} is its state at the pin, 0 when a wrong pre-image
 * was kept, 2 when the reader saw the change and no pre-image was kept. r2: the modRevision the
 * reader saw (1 or 3), to show both orders happen. Each instance allocates an undo log and a
 * change record.
 */
@JCStressTest
@Description("UndoLog passed keys vs. the writer's look: a key the scan read after the writer changed it keeps its pre-image.")
@Outcome(id = {"1, 1", "1, 3"}, expect = ACCEPTABLE, desc = "The read's merged state of the key is its state at the pin.")
@Outcome(expect = FORBIDDEN, desc = "The reader saw the change but its pre-image was skipped, or a wrong one was kept.")
@State
public class UndoLogPassedKeyStress
{
    private static final long PIN = 1;
    private static final long CHANGE = 3;
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

    private final UndoLog undo = new UndoLog(1 << 16, 64, 256);
    private final int slot;
    private final ChangeRecord changes = new ChangeRecord();
    private final UnsafeBuffer key = new UnsafeBuffer(KEY);
    private final UnsafeBuffer oldValue = new UnsafeBuffer(new byte[] {1});
    private final UnsafeBuffer newValue = new UnsafeBuffer(new byte[] {3});
    /** The index's node of "k": its modRevision. */
    private volatile long node = PIN;
    private long seen;

    /**
     * Pins a read at revision 1 and lets the writer learn the pin with a revision changing another
     * key, as the first revision after a pin does.
     */
    public UndoLogPassedKeyStress()
    {
        slot = undo.pin();
        undo.pinAt(slot, PIN);
        undo.beginRevision();
        changes.clear();
        final UnsafeBuffer other = new UnsafeBuffer("other".getBytes(StandardCharsets.UTF_8));
        changes.add(EventType.PUT, other, 0, 5, newValue, 0, 1, 2, 2, 1, null, 0, 0, 0, 0, 0);
        undo.onRevision(2, changes);
    }

    /**
     * Changes "k" at revision 3. Writer actor thread, the log's writer.
     */
    @Actor
    public void writer()
    {
        undo.beginRevision();
        node = CHANGE;
        changes.clear();
        changes.add(EventType.PUT, key, 0, 1, newValue, 0, 1, PIN, CHANGE, 2, oldValue, 0, 1, PIN, PIN, 1);
        undo.onRevision(CHANGE, changes);
    }

    /**
     * Reads "k", then says the scan passed it. Reader actor thread.
     */
    @Actor
    public void reader()
    {
        seen = node;
        undo.pass(slot, KEY);
    }

    /**
     * Merges the reader's view of "k" with what the writer kept.
     *
     * @param result r1: the verdict; r2: the modRevision the reader saw.
     */
    @Arbiter
    public void merge(final II_Result result)
    {
        result.r2 = (int)seen;
        if (seen <= PIN)
        {
            result.r1 = 1;
            return;
        }
        final long[] oldest = {-1, -1};
        undo.readSince(PIN, null, new ExpandableArrayBuffer(128),
            (buffer, keyOffset, keyLength, valueOffset, valueLength, createRevision, modRevision, version, lease) ->
            {
                if (oldest[0] == -1 && keyLength == 1 && buffer.getByte(keyOffset) == 'k')
                {
                    oldest[0] = valueLength == 1 ? buffer.getByte(valueOffset) : -2;
                    oldest[1] = modRevision;
                }
            });
        if (oldest[0] == -1)
        {
            result.r1 = 2;
            return;
        }
        result.r1 = oldest[0] == 1 && oldest[1] == PIN ? 1 : 0;
    }
}
