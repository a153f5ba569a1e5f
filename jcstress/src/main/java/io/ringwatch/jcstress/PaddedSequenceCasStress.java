package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.PaddedSequence;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link PaddedSequence#compareAndSet} between two threads: exactly one of two claims of the same value wins,
 * and the sequence ends holding the winner's value: the atomicity that a consumer sequence claimed by
 * several threads would rely on. (Its release/acquire pair is {@link PaddedSequencePublicationStress}; its
 * padding is a layout matter, which no outcome can show.)
 * <p>
 * Both actors try to move the sequence from 0, actor 1 to 1 and actor 2 to 2 (r1, r2: whether each won); the
 * arbiter reads the value (r3). Every jcstress instance is used from the jcstress threads only; allocates one
 * sequence per instance.
 */
@JCStressTest
@Description("PaddedSequence compareAndSet from two threads: exactly one winner, whose value stays.")
@Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "Actor 1 won.")
@Outcome(id = "false, true, 2", expect = ACCEPTABLE, desc = "Actor 2 won.")
@Outcome(expect = FORBIDDEN, desc = "Both won or neither did (a CAS that is not atomic), or the value is not the "
    + "winner's.")
@State
public class PaddedSequenceCasStress
{
    private final PaddedSequence sequence = new PaddedSequence(0);

    /**
     * Claims 0 → 1. Actor 1's thread.
     *
     * @param result receives whether it won, in r1.
     */
    @Actor
    public void actor1(final ZZJ_Result result)
    {
        result.r1 = sequence.compareAndSet(0, 1);
    }

    /**
     * Claims 0 → 2. Actor 2's thread.
     *
     * @param result receives whether it won, in r2.
     */
    @Actor
    public void actor2(final ZZJ_Result result)
    {
        result.r2 = sequence.compareAndSet(0, 2);
    }

    /**
     * Reads the final value. Arbiter thread, after both actors.
     *
     * @param result receives it in r3.
     */
    @Arbiter
    public void finalState(final ZZJ_Result result)
    {
        result.r3 = sequence.getVolatile();
    }
}
