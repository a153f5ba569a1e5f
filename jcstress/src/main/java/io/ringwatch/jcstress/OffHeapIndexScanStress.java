package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link OffHeapIndex#scan} against the writer inserting, moving and removing a key between two stable keys:
 * the scan visits both stable keys, in order, each once, and the key in between at most once and only as a
 * version that was written.
 * <p>
 * Keys {@code "a"} (revision 1) and {@code "c"} (revision 2) are stable. The writer puts {@code "b"} with a
 * 10-byte value (revision 4), puts it again with a 150-byte value (revision 5: the node moves to a larger
 * block and is replaced in the skip list), then removes it (freeing the node). The reader scans every key
 * (r1); the arbiter scans again (r2), then closes the index. Each result is a {@link ScanTrace}: 1 = a,
 * 2 = b, 3 = c, 9 = an entry that is no version written.
 * <p>
 * Every jcstress instance is used from the jcstress threads only: the state constructor and then the writer
 * actor are the index's writer. Allocates one index (a 64 KiB arena chunk, freed by the arbiter), entries
 * and traces per instance.
 */
@JCStressTest
@Description("OffHeapIndex scan vs. insert/move/remove of a key between two stable keys: both stable keys, "
    + "in order, once each.")
@Outcome(id = "13, 13", expect = ACCEPTABLE, desc = "The scan did not meet b: it ran before the insert, "
    + "after the removal, or passed b's place while b was absent.")
@Outcome(
    id = "123, 13",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The scan met b while it was present (in its first or its moved block) and read a whole version.")
@Outcome(
    expect = FORBIDDEN,
    desc = "A stable key missing, keys out of order or one twice, a 9 (a torn or never-written entry), or a "
        + "final state other than a and c.")
@State
public class OffHeapIndexScanStress
{
    private static final UnsafeBuffer A = IndexValues.key("a");
    private static final UnsafeBuffer B = IndexValues.key("b");
    private static final UnsafeBuffer C = IndexValues.key("c");
    private static final DirectBuffer[] KEYS = {A, B, C};
    private static final long[] CREATE_REVISIONS = {1, 4, 2};
    private static final long[] LAST_REVISIONS = {1, 5, 2};

    private final OffHeapIndex index = new OffHeapIndex(4);
    private final IndexEntry writerEntry = new IndexEntry();
    private final IndexEntry readerEntry = new IndexEntry();
    private final ScanTrace readerTrace = new ScanTrace(KEYS, CREATE_REVISIONS, LAST_REVISIONS);
    private final IndexEntry arbiterEntry = new IndexEntry();
    private final ScanTrace arbiterTrace = new ScanTrace(KEYS, CREATE_REVISIONS, LAST_REVISIONS);

    /**
     * Puts the stable keys a and c. The thread jcstress creates state on, as the index's writer until the
     * writer actor takes over.
     */
    public OffHeapIndexScanStress()
    {
        IndexValues.put(index, A, 1, writerEntry);
        IndexValues.put(index, C, 2, writerEntry);
    }

    /**
     * Inserts b, moves it to a larger block, removes it. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        IndexValues.put(index, B, 4, writerEntry);
        IndexValues.put(index, B, 5, writerEntry);
        index.remove(B, 0, B.capacity(), writerEntry);
    }

    /**
     * Scans every key. Reader actor thread.
     *
     * @param result receives the trace in r1.
     */
    @Actor
    public void reader(final II_Result result)
    {
        result.r1 = scanAll(readerEntry, readerTrace);
    }

    /**
     * Scans the final state, then frees the index. Arbiter thread, after both actors.
     *
     * @param result receives the trace in r2.
     */
    @Arbiter
    public void finalState(final II_Result result)
    {
        result.r2 = scanAll(arbiterEntry, arbiterTrace);
        index.close();
    }

    private int scanAll(final IndexEntry entry, final ScanTrace trace)
    {
        trace.reset();
        index.scan(null, 0, 0, null, 0, 0, 0, trace, entry);
        return trace.trace();
    }
}
