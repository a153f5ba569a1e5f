package io.ringwatch.jcstress;

import com.lmax.disruptor.RingBuffer;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.WakeableWaitStrategy;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The writer's ring loses no wake-up without a fence of the publisher's own
 * ({@link WakeableWaitStrategy#forMultiProducerRing()}): a producer claims a slot of a multi-producer ring
 * ({@code RingBuffer.next}, an atomic add on the cursor) and publishes it ({@code RingBuffer.publish},
 * which rings the strategy's doorbell with no full fence), against the ring's one consumer, which arms the
 * doorbell and checks the cursor, as the strategy's {@code waitFor} does before it parks. If the consumer's
 * check missed the claim, the publish must have found it armed.
 * <p>
 * r1: the consumer's check saw the claim; r2 (arbiter): a publish disarmed the doorbell, i.e. found the
 * consumer armed and unparked it.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates a ring of two slots per
 * instance. The unpark leaves a permit on the consumer's actor thread, which every park loop tolerates.
 */
@JCStressTest
@Description("Multi-producer claim and publish without a fence against the consumer's arm-then-check: seen or rung.")
@Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The claim came before the check: the consumer saw it, nobody was armed.")
@Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The arm came first: the publish woke the consumer.")
@Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING, desc = "Both: seen, and rung as well (a spare unpark).")
@Outcome(id = "false, false", expect = FORBIDDEN, desc = "Lost wake-up: the check missed the claim and the publish missed the armed consumer.")
@State
public class WriterRingClaimStress
{
    private final WakeableWaitStrategy strategy = WakeableWaitStrategy.forMultiProducerRing();
    private final RingBuffer<long[]> ring = RingBuffer.createMultiProducer(() -> new long[1], 2, strategy);
    private final Doorbell doorbell = strategy.doorbell();

    /**
     * Claims and publishes one slot. Producer actor thread.
     */
    @Actor
    public void producer()
    {
        ring.publish(ring.next());
    }

    /**
     * Arms, then reads the cursor, as the strategy's wait does before it parks. Consumer actor thread.
     *
     * @param result r1: whether the check saw the claim.
     */
    @Actor
    public void consumer(final ZZ_Result result)
    {
        doorbell.arm();
        result.r1 = ring.getCursor() >= 0;
    }

    /**
     * Reads whether a publish rang the armed consumer: its ring disarms the doorbell.
     *
     * @param result r2: whether the consumer was rung.
     */
    @Arbiter
    public void rung(final ZZ_Result result)
    {
        result.r2 = !doorbell.isArmed();
    }
}
