package io.ringwatch.jcstress;

import io.ringwatch.engine.idle.Doorbell;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A delivery turn that begins while the housekeeper goes into deep idle: the housekeeper watches
 * turns for listeners that block (it starts a thread in their place), and parks for long only when
 * no thread is in a turn. It arms its doorbell, then reads each delivery thread's turn
 * ({@code DeliveryPool.isQuiet}); a delivery thread stores its turn (a volatile store,
 * {@code DeliveryWorker.enterTurn}), then rings the housekeeper's doorbell without a fence of its
 * own ({@code DeliveryPool.run}: a volatile store then a volatile load, which the memory model
 * keeps in order). Either the housekeeper sees the turn or the delivery thread sees it armed and
 * wakes it; otherwise a listener blocked in that turn goes unnoticed until the deep park runs out.
 * <p>
 * r1: 1 the housekeeper saw the turn, 2 it saw none (it parks); r2: the delivery thread's ring
 * woke it.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates one doorbell per
 * instance. An unpark leaves a permit on the housekeeper actor's thread: a spurious wake-up for its
 * next park, which every park loop tolerates.
 */
@JCStressTest
@Description("A turn against the housekeeper's deep park: it sees the turn or is rung.")
@Outcome(id = "1, false", expect = ACCEPTABLE, desc = "The housekeeper saw the turn; no ring needed.")
@Outcome(id = "2, true", expect = ACCEPTABLE, desc = "It saw no turn and parks; the delivery thread found it armed and rang.")
@Outcome(id = "1, true", expect = ACCEPTABLE_INTERESTING, desc = "It saw the turn, and was rung as well (a spare unpark).")
@Outcome(id = "2, false", expect = FORBIDDEN, desc = "Stall: the housekeeper parks deeply while a turn runs unwatched.")
@State
public class HousekeeperTurnWakeStress
{
    private static final int SAW_TURN = 1;
    private static final int PARKS = 2;

    private final Doorbell housekeeping = new Doorbell();
    private volatile Object inTurn;

    /**
     * Arms, then checks for a turn, as the housekeeper before its deep park. Housekeeper actor.
     *
     * @param result r1: {@link #SAW_TURN} or {@link #PARKS}.
     */
    @Actor
    public void housekeeper(final IZ_Result result)
    {
        housekeeping.arm();
        result.r1 = inTurn != null ? SAW_TURN : PARKS;
    }

    /**
     * Begins a turn, then rings, as a delivery thread. Delivery actor.
     *
     * @param result r2: whether the ring woke the housekeeper.
     */
    @Actor
    public void delivery(final IZ_Result result)
    {
        inTurn = this;
        result.r2 = housekeeping.ringAfterFence();
    }
}
