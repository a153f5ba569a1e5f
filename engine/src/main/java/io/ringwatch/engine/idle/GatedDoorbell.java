package io.ringwatch.engine.idle;

import java.lang.invoke.VarHandle;

/**
 * Left padding of {@link GatedDoorbell}: 120 bytes between the object header and {@code open}.
 */
abstract class GatedDoorbellLeftPadding
{
    protected long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * Whether the gate is open, between the two paddings.
 */
abstract class GatedDoorbellGate extends GatedDoorbellLeftPadding
{
    protected volatile boolean open;
}

/**
 * Right padding of {@link GatedDoorbell}: 120 bytes after {@code open}.
 */
abstract class GatedDoorbellRightPadding extends GatedDoorbellGate
{
    protected long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/**
 * A {@link Doorbell} as one frequent producer sees it: that producer rings it only while the owner
 * has opened the gate, because only then can its work be any of the owner's business. The engine's
 * writer rings each dispatcher after every batch it publishes to the watch window; a dispatcher
 * with no watcher registered has nothing to route, so it closes its gate and the writer's rings
 * stop waking it (an unpark here, a wake-up there, about 10 µs of CPU each on the 2-core VM). Its
 * other producers (watcher registrations, removals, progress requests, a stop) ring the
 * doorbell itself, as before.
 * <p>
 * Protocol. The owner opens the gate before it next checks for the producer's work, and that
 * check comes after the owner's {@link Doorbell#arm() arm} (whose full fence then orders the
 * gate's store before it) or on the way to it. The producer makes its work visible, issues a full
 * fence, then {@link #ringAfterFence() reads the gate} and, if open, the doorbell
 * ({@link #ringAll} does both for every dispatcher the writer follows). So a producer
 * that finds the gate closed published before the owner's fenced check, which sees the work: a
 * Dekker pair like the doorbell's own, and no work published while the gate opens is left
 * waiting for the owner's longest park (jcstress: {@code WatcherRegistrationWakeStress}). While
 * the gate is closed the owner wakes only for its other producers or when its park runs out.
 * <p>
 * Padded: the producer reads {@code open} after every batch. Threading: {@code open} and
 * {@code close} on the owner thread only; the rest from any thread. Allocation: none after
 * construction.
 */
public final class GatedDoorbell extends GatedDoorbellRightPadding
{
    private final Doorbell doorbell;

    /**
     * Creates a closed gate before {@code doorbell}. Any thread.
     *
     * @param doorbell the owner's doorbell, which its other producers ring directly.
     */
    public GatedDoorbell(final Doorbell doorbell)
    {
        this.doorbell = doorbell;
    }

    /**
     * Lets the producer's rings through from its next ring on. Call before the owner's next check
     * for the producer's work. Owner thread; no allocation.
     */
    public void open()
    {
        if (!open)
        {
            open = true;
        }
    }

    /**
     * Stops the producer's rings: the owner has no use for the producer's work until it opens the
     * gate again. Owner thread; no allocation.
     */
    public void close()
    {
        if (open)
        {
            open = false;
        }
    }

    /**
     * @return whether the producer's rings go through. Any thread.
     */
    public boolean isOpen()
    {
        return open;
    }

    /**
     * @return the doorbell behind the gate. Any thread.
     */
    public Doorbell doorbell()
    {
        return doorbell;
    }

    /**
     * Wakes the owner if the gate is open and the owner is armed. The producer calls it after
     * making its work visible and issuing a full fence ({@link java.lang.invoke.VarHandle#fullFence()}),
     * one fence for all the gates it rings; without that fence a wake-up can be lost. Any thread;
     * no allocation; an unpark system call only when the gate is open and the owner armed.
     *
     * @return true if this call woke the owner.
     */
    public boolean ringAfterFence()
    {
        return open && doorbell.ringAfterFence();
    }

    /**
     * Makes the producer's work, stored before this call, visible to each owner and wakes every
     * owner whose gate is open and who is armed: one full fence for all of them, then
     * {@link #ringAfterFence()} on each. Any thread; no allocation.
     *
     * @param gates the gates to ring.
     */
    public static void ringAll(final GatedDoorbell[] gates)
    {
        VarHandle.fullFence();
        for (final GatedDoorbell gate : gates)
        {
            gate.ringAfterFence();
        }
    }
}
