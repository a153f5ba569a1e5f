package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link OffHeapIndex#get} against the writer moving the key's hash slot into a larger table (and then
 * changing the key where it moved): the key, present throughout, is never reported absent, and every get
 * returns one whole version, never older than the last one seen.
 * <p>
 * The index starts with a 19-slot hash table. The constructor puts {@code "key"} at revision 1 and 15 more
 * keys: the 16th put fills the table past 0.8, so a 25-slot table is published beside it with none of the old
 * slots moved yet ({@link OffHeapIndex#isHashTableMoving}, checked). The writer puts {@code "key"} at revision
 * 2: the lookup first moves a step of old slots, here all 19 (each copied into the new table, then marked
 * moved), then rewrites the value in place; then at revision 3, which outgrows the block, so the key's slot in
 * the new table is pointed at a new node. The reader gets the key twice (r1, r2), probing the old table, then
 * the new one, while slots move; the arbiter gets it once more (r3), checks that the move ended, and closes
 * the index. Each result is the version seen (1, 2, 3), 0 for "absent", 9 for an entry that is no version
 * written ({@link IndexValues#holds}).
 * <p>
 * Blind spot: a step of 19 slots moves the key's slot at one moment of a short burst; a move of a large table,
 * whose steps come write after write, is covered by {@code NodeHashIndexMoveTest} (a reader thread and every
 * step checked), not here.
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the state constructor and then the writer
 * actor are the index's writer. Allocates one index (a 64 KiB arena chunk and two small tables, freed by the
 * arbiter) and its entries per instance.
 */
@JCStressTest
@Description("OffHeapIndex get vs. the writer moving that key's hash slot into a grown table, then changing it "
    + "there: never absent, one whole version, never older than the last one seen.")
@Outcome(id = "1, 1, 3", expect = ACCEPTABLE, desc = "Both gets ran before the writer's first put.")
@Outcome(id = "3, 3, 3", expect = ACCEPTABLE, desc = "Both gets ran after the move and both puts.")
@Outcome(
    id = "(1, [23]|2, [23]), 3",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The gets raced the move and the puts: the key found in the old table or the new one.")
@Outcome(
    expect = FORBIDDEN,
    desc = "0: the key, present throughout, reported absent (lost while its slot moved); 9: a value never "
        + "written, or torn; a second get older than the first; a final state other than version 3.")
@State
public class OffHeapIndexHashMoveStress
{
    private static final UnsafeBuffer KEY = IndexValues.key("key");
    private static final UnsafeBuffer[] OTHERS = others(15);
    private static final long CREATE_REVISION = 1;
    private static final long LAST_REVISION = 3;
    /** Keys before the hash table must grow: a 19-slot table takes 15, the 16th starts the move. */
    private static final int INITIAL_KEYS = 12;

    private final OffHeapIndex index = new OffHeapIndex(INITIAL_KEYS);
    private final IndexEntry writerEntry = new IndexEntry();
    private final IndexEntry readerEntry = new IndexEntry();

    /**
     * Creates the key at revision 1 and the keys whose last one starts the move. The thread jcstress creates
     * state on, as the index's writer until the writer actor takes over.
     *
     * @throws IllegalStateException if no move is in progress after them (the table's sizes changed).
     */
    public OffHeapIndexHashMoveStress()
    {
        IndexValues.put(index, KEY, 1, writerEntry);
        for (final UnsafeBuffer other : OTHERS)
        {
            IndexValues.put(index, other, 1, writerEntry);
        }
        if (!index.isHashTableMoving())
        {
            throw new IllegalStateException("no hash table move in progress after " + (OTHERS.length + 1) + " keys");
        }
    }

    /**
     * Puts revision 2 (its lookup moves the slots, then an in-place rewrite), then revision 3 (a block move).
     * Writer actor thread.
     */
    @Actor
    public void writer()
    {
        IndexValues.put(index, KEY, 2, writerEntry);
        IndexValues.put(index, KEY, 3, writerEntry);
    }

    /**
     * Gets the key twice. Reader actor thread.
     *
     * @param result receives the versions seen in r1, r2.
     */
    @Actor
    public void reader(final III_Result result)
    {
        result.r1 = versionSeen(readerEntry);
        result.r2 = versionSeen(readerEntry);
    }

    /**
     * Gets the final version, then frees the index. Arbiter thread, after both actors.
     *
     * @param result receives the final version in r3 (9 if the move had not ended).
     */
    @Arbiter
    public void finalState(final III_Result result)
    {
        result.r3 = index.isHashTableMoving() ? IndexValues.WRONG : versionSeen(readerEntry);
        index.close();
    }

    private int versionSeen(final IndexEntry entry)
    {
        return IndexValues.versionSeen(index, KEY, entry, CREATE_REVISION, LAST_REVISION);
    }

    private static UnsafeBuffer[] others(final int count)
    {
        final UnsafeBuffer[] keys = new UnsafeBuffer[count];
        for (int i = 0; i < count; i++)
        {
            keys[i] = IndexValues.key("other-" + i);
        }
        return keys;
    }
}
