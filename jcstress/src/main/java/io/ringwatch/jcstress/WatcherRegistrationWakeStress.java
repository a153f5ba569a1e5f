package io.ringwatch.jcstress;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.GatedDoorbell;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IZ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A watcher registered while the writer publishes, to a dispatcher that has no watcher yet: the writer
 * does not wake such a dispatcher (its {@link GatedDoorbell} is closed), so the registration must, and
 * the event published meanwhile must be seen by the dispatcher's check or bring a ring once the gate is
 * open. Otherwise the dispatcher parks with the new watcher's event unrouted until its park runs out.
 * <p>
 * The dispatcher actor first registers (as {@code Dispatcher.submit}: the command, then the doorbell's
 * ring), from a dispatcher parked armed with its gate closed; then, if that ring woke it, it does what its
 * next duty cycle does: takes the command and opens the gate ({@code Dispatcher.gateWriterRings}), checks
 * the window's cursor, and if the event is not there arms the doorbell and checks once more (the idle
 * strategy's last step before it parks). The writer actor publishes an event with a release store (as the
 * watch window does), issues its full fence and rings through the gate ({@code RevisionApplier}).
 * <p>
 * r1: 0 the registration did not wake the dispatcher, 1 the dispatcher saw the event, 2 it armed and
 * its last check missed the event (it parks); r2: the writer's ring woke the dispatcher.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates one doorbell and gate per
 * instance. The unparks leave permits on the actor threads: spurious wake-ups for their next parks, which
 * every park loop tolerates.
 */
@JCStressTest
@Description("Registration against a publish the writer does not ring for: the dispatcher sees the event or is rung.")
@Outcome(id = "1, false", expect = ACCEPTABLE, desc = "The dispatcher's check saw the event.")
@Outcome(id = "2, true", expect = ACCEPTABLE, desc = "The dispatcher armed and missed it; the writer found the gate open and rang.")
@Outcome(
    id = "1, true",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The dispatcher saw the event after it armed, and the writer rang as well (a spare unpark).")
@Outcome(
    id = "2, false",
    expect = FORBIDDEN,
    desc = "Stall: the dispatcher parks with the event unrouted and the writer did not ring it.")
@Outcome(
    id = "0, .*",
    expect = FORBIDDEN,
    desc = "Stall: the registration left the dispatcher parked.")
@State
public class WatcherRegistrationWakeStress
{
    private static final int NOT_WOKEN = 0;
    private static final int SAW_EVENT = 1;
    private static final int PARKS = 2;
    private static final VarHandle COMMAND;
    private static final VarHandle PUBLISHED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COMMAND = lookup.findVarHandle(WatcherRegistrationWakeStress.class, "command", int.class);
            PUBLISHED = lookup.findVarHandle(WatcherRegistrationWakeStress.class, "published", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Doorbell doorbell = new Doorbell();
    private final GatedDoorbell windowBell = new GatedDoorbell(doorbell);
    @SuppressWarnings("unused")
    private int command;
    @SuppressWarnings("unused")
    private long published;

    /**
     * Registers a watcher, then runs the woken dispatcher's cycle up to where it would park. Dispatcher
     * actor thread (the registering thread's part first).
     *
     * @param result r1: {@link #NOT_WOKEN}, {@link #SAW_EVENT} or {@link #PARKS}.
     */
    @Actor
    public void dispatcher(final IZ_Result result)
    {
        // The dispatcher, without watchers, parked armed behind a closed gate.
        doorbell.arm();
        // Dispatcher.submit on the registering thread.
        COMMAND.setRelease(this, 1);
        doorbell.ring();
        // Still armed: nobody woke it.
        if (doorbell.isArmed())
        {
            result.r1 = NOT_WOKEN;
            return;
        }
        if ((int)COMMAND.getAcquire(this) != 0)
        {
            windowBell.open();
        }
        if ((long)PUBLISHED.getAcquire(this) != 0)
        {
            result.r1 = SAW_EVENT;
            return;
        }
        doorbell.arm();
        result.r1 = (long)PUBLISHED.getAcquire(this) != 0 ? SAW_EVENT : PARKS;
    }

    /**
     * Publishes an event to the window, then rings the dispatcher through its gate. Writer actor thread.
     *
     * @param result r2: whether the ring woke the dispatcher.
     */
    @Actor
    public void writer(final IZ_Result result)
    {
        PUBLISHED.setRelease(this, 1L);
        VarHandle.fullFence();
        result.r2 = windowBell.ringAfterFence();
    }
}
