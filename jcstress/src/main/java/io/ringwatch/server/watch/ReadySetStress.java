package io.ringwatch.server.watch;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link ReadySet}'s protocol leaves no member with work and unvisited: the consumer holds a member
 * it took (still marked), unmarks it and then looks for its work, as the watch pump does before it
 * polls a watch; the producer publishes work with a release store and a full fence, as the engine
 * does before it signals a pull watcher, and then marks the member. If the consumer's look missed
 * the work, the producer's mark must have found the member unmarked and added it to the set again.
 * <p>
 * r1: the mark added the member; r2: the consumer's look saw the work.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates one set and one member.
 */
@JCStressTest
@Description("ReadySet unmark-then-look against publish-then-mark: the consumer sees the work or the member is added again.")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The unmark came first: the mark added the member again.")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The work came first: the consumer saw it, the mark found the member marked.")
@Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING, desc = "Both: seen and added again (a spare visit).")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "Lost: the look missed the work and the mark found the member marked.")
@State
public class ReadySetStress
{
    private static final VarHandle WORK;

    static
    {
        try
        {
            WORK = MethodHandles.lookup().findVarHandle(ReadySetStress.class, "work", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReadySet<Node> set = new ReadySet<>();
    private final Node node = new Node();
    @SuppressWarnings("unused")
    private int work;

    /** A member that is marked and in the consumer's hands, as a watch the pump took. */
    public ReadySetStress()
    {
        set.mark(node);
        set.takeAll();
    }

    /**
     * Publishes work, fences, then marks. Producer actor thread.
     *
     * @param result r1: whether the mark added the member.
     */
    @Actor
    public void producer(final ZZ_Result result)
    {
        WORK.setRelease(this, 1);
        VarHandle.fullFence();
        result.r1 = set.mark(node);
    }

    /**
     * Unmarks, then looks for work with an acquire load, as a poll reads the watcher's queue.
     * Consumer actor thread.
     *
     * @param result r2: whether the look saw the work.
     */
    @Actor
    public void consumer(final ZZ_Result result)
    {
        set.unmark(node);
        result.r2 = (int)WORK.getAcquire(this) != 0;
    }

    /** The member type. */
    static final class Node extends ReadySet.Member<Node>
    {
    }
}
