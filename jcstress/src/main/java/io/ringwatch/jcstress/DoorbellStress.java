package io.ringwatch.jcstress;

import io.ringwatch.engine.idle.Doorbell;
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
 * {@link Doorbell}'s protocol loses no wake-up: an owner that arms and then checks for work, against a
 * producer that publishes work with a release store (as the watch window publishes) and then rings. If
 * the owner's check missed the work, the producer's ring must have found it armed (and unparked it);
 * otherwise the owner would park with work waiting.
 * <p>
 * r1: the owner's check saw the work; r2: the ring found the owner armed.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates one doorbell per instance.
 * The unpark a ring makes leaves a permit on the actor thread: a spurious wake-up for its next park,
 * which every park loop tolerates.
 */
@JCStressTest
@Description("Doorbell arm-then-check against publish-then-ring: the owner sees the work or is rung.")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The work came before the arm: the owner saw it, nobody was armed.")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The arm came first: the ring woke the owner.")
@Outcome(
    id = "true, true",
    expect = ACCEPTABLE_INTERESTING,
    desc = "Both: the owner saw the work and was rung as well (a spare unpark).")
@Outcome(
    id = "false, false",
    expect = FORBIDDEN,
    desc = "Lost wake-up: the owner's check missed the work and the ring missed the armed owner.")
@State
public class DoorbellStress
{
    private static final VarHandle WORK;

    static
    {
        try
        {
            WORK = MethodHandles.lookup().findVarHandle(DoorbellStress.class, "work", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Doorbell doorbell = new Doorbell();
    @SuppressWarnings("unused")
    private int work;

    /**
     * Arms, then checks for work with an acquire load, as a dispatcher reads the window's cursor. Owner
     * actor thread.
     *
     * @param result r1: whether the check saw the work.
     */
    @Actor
    public void owner(final ZZ_Result result)
    {
        doorbell.arm();
        result.r1 = (int)WORK.getAcquire(this) != 0;
    }

    /**
     * Publishes work with a release store, then rings. Producer actor thread.
     *
     * @param result r2: whether the ring found the owner armed.
     */
    @Actor
    public void producer(final ZZ_Result result)
    {
        WORK.setRelease(this, 1);
        result.r2 = doorbell.ring();
    }
}
