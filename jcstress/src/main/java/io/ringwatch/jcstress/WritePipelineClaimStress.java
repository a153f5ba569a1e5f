package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyValue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import java.util.Optional;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The write pipeline's multi-producer claim under contention, through the public API: two producers putting at
 * once each get their own revision, and both puts are applied at the revision they were told.
 * <p>
 * Each instance puts two fresh keys of the {@link SharedEngine}, one per producer (blocking puts: each
 * producer claims a slot of the write ring, fills it, publishes it and waits for the writer thread). The
 * arbiter reads both keys back. r1: which producer got the lower revision ("P1" or "P2"; "SAME" if they got
 * one revision); r2: "NEXT" if the two revisions are consecutive (no other claim came between the two
 * producers'), "APART" if other instances' puts came between them; r3: "APPLIED" if each key holds its producer's value at the revision its
 * put returned, otherwise "LOST".
 * <p>
 * Every jcstress instance is used from the jcstress threads only. Allocates two keys, the puts' requests and
 * results, and the reads per instance.
 */
@JCStressTest
@Description("Write ring claim by two producers at once: distinct revisions, both applied.")
@Outcome(id = "(P1|P2), APART, APPLIED", expect = ACCEPTABLE, desc = "Other instances' puts came between the two.")
@Outcome(
    id = "(P1|P2), NEXT, APPLIED",
    expect = ACCEPTABLE_INTERESTING,
    desc = "Nothing came between the two producers' claims: consecutive revisions, in either order.")
@Outcome(
    expect = FORBIDDEN,
    desc = "SAME: one revision for two puts (a slot claimed twice); LOST: a put not applied, applied at another "
        + "revision than it was told, or overwritten by the other producer's value.")
@State
public class WritePipelineClaimStress
{
    private static final byte[] FIRST = ValueTrace.value(1);
    private static final byte[] SECOND = ValueTrace.value(2);

    private final RingWatch engine = SharedEngine.engine();
    private final byte[] firstKey = SharedEngine.freshKey("claim");
    private final byte[] secondKey = SharedEngine.freshKey("claim");
    private long firstRevision;
    private long secondRevision;

    /**
     * Puts the first key. Producer 1's actor thread.
     */
    @Actor
    public void producer1()
    {
        firstRevision = engine.put(firstKey, FIRST).revision();
    }

    /**
     * Puts the second key. Producer 2's actor thread.
     */
    @Actor
    public void producer2()
    {
        secondRevision = engine.put(secondKey, SECOND).revision();
    }

    /**
     * Grades the revisions and reads both keys back. Arbiter thread, after both producers.
     *
     * @param result receives the order (r1), the gap (r2) and whether both were applied (r3).
     */
    @Arbiter
    public void finalState(final LLL_Result result)
    {
        result.r1 = firstRevision < secondRevision ? "P1" : firstRevision > secondRevision ? "P2" : "SAME";
        result.r2 = Math.abs(firstRevision - secondRevision) == 1 ? "NEXT" : "APART";
        final boolean applied = holds(engine.get(firstKey), FIRST[0], firstRevision) &&
            holds(engine.get(secondKey), SECOND[0], secondRevision);
        result.r3 = applied ? "APPLIED" : "LOST";
    }

    private static boolean holds(final Optional<KeyValue> read, final byte value, final long revision)
    {
        return read.isPresent() &&
            read.get().modRevision() == revision &&
            read.get().value().length == 1 &&
            read.get().value()[0] == value;
    }
}
