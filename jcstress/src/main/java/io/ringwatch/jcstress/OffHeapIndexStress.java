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
 * {@link OffHeapIndex#get} against the writer replacing the same key, in place and by moving it to a larger
 * block: every get returns one whole version (value and createRevision/modRevision/version of the same put),
 * and a later get never returns an older version than an earlier one.
 * <p>
 * The key {@code "key"} is created at revision 1 with a 16-byte value. The writer puts a 7-byte value at
 * revision 2 (fits the block: rewritten in place under the node's seqlock) and a 200-byte value at revision 3
 * (outgrows it: the node moves to a new block, the old one is freed). The reader gets the key twice (r1, r2);
 * the arbiter gets it once more (r3), then closes the index. Each result is the version seen (1, 2, 3), 0 for
 * "absent", 9 for an entry that is no version written ({@link IndexValues#holds}).
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the state constructor and then the writer
 * actor are the index's writer. Allocates one index (a 64 KiB arena chunk, freed by the arbiter) and its
 * entries per instance.
 */
@JCStressTest
@Description("OffHeapIndex get vs. same-key puts (in place, then a block move): one whole version, never "
    + "older than the last one seen.")
@Outcome(id = "1, 1, 3", expect = ACCEPTABLE, desc = "Both gets ran before the writer's first put.")
@Outcome(id = "3, 3, 3", expect = ACCEPTABLE, desc = "Both gets ran after the block move.")
@Outcome(
    id = "(1, [23]|2, [23]), 3",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The gets raced the puts: the in-place rewrite (version 2) or the move (3) happened meanwhile.")
@Outcome(
    expect = FORBIDDEN,
    desc = "9: a value never written, or a value of one version with the metadata of another (torn); 0: the "
        + "key, present throughout, reported absent; a second get older than the first; a final state other "
        + "than version 3.")
@State
public class OffHeapIndexStress
{
    private static final UnsafeBuffer KEY = IndexValues.key("key");
    private static final long CREATE_REVISION = 1;
    private static final long LAST_REVISION = 3;

    private final OffHeapIndex index = new OffHeapIndex(4);
    private final IndexEntry writerEntry = new IndexEntry();
    private final IndexEntry readerEntry = new IndexEntry();

    /**
     * Creates the key at revision 1. The thread jcstress creates state on, as the index's writer until the
     * writer actor takes over.
     */
    public OffHeapIndexStress()
    {
        IndexValues.put(index, KEY, 1, writerEntry);
    }

    /**
     * Puts revision 2 (in place), then revision 3 (a block move). Writer actor thread.
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
     * @param result receives the final version in r3.
     */
    @Arbiter
    public void finalState(final III_Result result)
    {
        result.r3 = versionSeen(readerEntry);
        index.close();
    }

    private int versionSeen(final IndexEntry entry)
    {
        return IndexValues.versionSeen(index, KEY, entry, CREATE_REVISION, LAST_REVISION);
    }
}
