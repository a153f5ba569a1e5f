package io.ringwatch.jcstress;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.watch.ReadyQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link ReadyQueue}'s protocol, in four races: no ready mark is lost (unmark-then-look against
 * publish-then-mark, flat and nested), no entry is taken twice for one mark (two marks at once), and
 * no wake-up is lost (arm-then-look against mark-then-ring). The producer side is what the engine's
 * dispatcher does for a pull watcher (publish, full fence, mark); the consumer side what the server's
 * watch pump does.
 * <p>
 * Every jcstress instance is used from the jcstress threads only; allocates a queue and an entry or
 * two per instance.
 */
public final class ReadyQueueStress
{
    private ReadyQueueStress()
    {
    }

    /**
     * The consumer holds an entry it took (still marked), unmarks it and then looks for the work, as
     * the pump does before it polls a watch; the producer publishes work with a release store and a
     * full fence, as the dispatcher does, and then marks. If the look missed the work, the mark must
     * have found the entry unmarked and added it again.
     * <p>
     * r1: the mark added the entry; r2: the consumer's look saw the work.
     */
    @JCStressTest
    @Description("ReadyQueue unmark-then-look against publish-then-mark: the consumer sees the work or the entry is added again.")
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The unmark came first: the mark added the entry again.")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The work came first: the consumer saw it, the mark found the entry marked.")
    @Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING, desc = "Both: seen and added again (a spare visit).")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "Lost: the look missed the work and the mark found the entry marked.")
    @State
    public static class UnmarkThenLook
    {
        private static final VarHandle WORK = work(UnmarkThenLook.class);

        private final ReadyQueue<String> queue = ReadyQueue.wakingWith(new Doorbell());
        private final ReadyQueue.Entry<String> entry = queue.entry("watch");
        @SuppressWarnings("unused")
        private int work;

        /** An entry that is marked and in the consumer's hands, as a watch the pump took. */
        public UnmarkThenLook()
        {
            entry.mark();
            queue.poll();
        }

        /**
         * Publishes work, fences, then marks. Producer actor thread.
         *
         * @param result r1: whether the mark added the entry.
         */
        @Actor
        public void producer(final ZZ_Result result)
        {
            WORK.setRelease(this, 1);
            VarHandle.fullFence();
            result.r1 = entry.mark();
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
            entry.unmark();
            result.r2 = (int)WORK.getAcquire(this) != 0;
        }
    }

    /**
     * The pump's two levels: the consumer holds a stream's entry it took (still marked), unmarks it and
     * then asks whether the stream's own queue has ready watches; the producer marks a watch of that
     * queue, which marks the stream's entry. If the consumer found the inner queue empty, the stream
     * must be in the outer queue again.
     * <p>
     * r1: the stream's entry is in the outer queue afterwards; r2: the consumer saw the inner queue
     * non-empty.
     */
    @JCStressTest
    @Description("Nested ReadyQueue unmark-then-look against an inner mark: the consumer sees the inner entry or the outer entry is added again.")
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The unmark came first: the inner mark added the stream again.")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The inner mark came first: the consumer saw it, the stream stayed marked.")
    @Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING, desc = "Both: seen and added again (a spare visit).")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "Lost: the consumer missed the ready watch and the stream was not added again.")
    @State
    public static class NestedUnmarkThenLook
    {
        private final ReadyQueue<String> streams = ReadyQueue.wakingWith(new Doorbell());
        private final ReadyQueue.Entry<String> stream = streams.entry("stream");
        private final ReadyQueue<String> watches = ReadyQueue.inside(stream);
        private final ReadyQueue.Entry<String> watch = watches.entry("watch");

        /** A stream that is marked and in the consumer's hands, with no ready watch. */
        public NestedUnmarkThenLook()
        {
            stream.mark();
            streams.poll();
        }

        /** Marks a watch of the stream, as the dispatcher does (its work is the mark). Producer actor thread. */
        @Actor
        public void producer()
        {
            watch.mark();
        }

        /**
         * Unmarks the stream, then asks its queue, as the pump asks {@code wantsPump}. Consumer actor
         * thread.
         *
         * @param result r2: whether the inner queue had the watch.
         */
        @Actor
        public void consumer(final ZZ_Result result)
        {
            stream.unmark();
            result.r2 = !watches.isEmpty();
        }

        /**
         * @param result r1: whether the stream is in the outer queue.
         */
        @Arbiter
        public void arbiter(final ZZ_Result result)
        {
            result.r1 = streams.poll() == stream;
        }
    }

    /**
     * Two producers mark the same unmarked entry at once: exactly one mark adds it, and the consumer
     * takes it exactly once (an entry is never in the queue twice, so a watcher is never drained twice
     * for one mark and the queue never holds more entries than it has).
     * <p>
     * r1: how many marks returned true; r2: how many times the consumer took the entry.
     */
    @JCStressTest
    @Description("ReadyQueue: two marks at once add the entry once, and it is taken once.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "One mark added the entry, the consumer took it once.")
    @Outcome(expect = FORBIDDEN, desc = "Added or taken twice, or not at all.")
    @State
    public static class TwoMarksOneTake
    {
        private final ReadyQueue<String> queue = ReadyQueue.wakingWith(new Doorbell());
        private final ReadyQueue.Entry<String> entry = queue.entry("watch");
        private boolean firstAdded;
        private boolean secondAdded;

        /** Marks. First producer actor thread. */
        @Actor
        public void first()
        {
            firstAdded = entry.mark();
        }

        /** Marks. Second producer actor thread. */
        @Actor
        public void second()
        {
            secondAdded = entry.mark();
        }

        /**
         * Takes everything, as the consumer.
         *
         * @param result r1: marks that added; r2: takes.
         */
        @Arbiter
        public void arbiter(final II_Result result)
        {
            result.r1 = (firstAdded ? 1 : 0) + (secondAdded ? 1 : 0);
            result.r2 = queue.drain(taken -> { });
        }
    }

    /**
     * The consumer arms the queue's doorbell and looks at the queue once more before it would park;
     * the producer marks an entry, which rings the doorbell. If the look found the queue empty, the
     * ring must have found the consumer armed (and unparked it).
     * <p>
     * r1: the consumer's look found the entry; r2: the doorbell was rung (disarmed) afterwards.
     */
    @JCStressTest
    @Description("ReadyQueue arm-then-look against mark-then-ring: the consumer sees the entry or is rung.")
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "The mark came before the arm: the consumer saw it, nobody was armed.")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "The arm came first: the ring woke the consumer.")
    @Outcome(id = "true, true", expect = ACCEPTABLE_INTERESTING, desc = "Both: seen and rung (a spare unpark).")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "Lost wake-up: the look missed the entry and the ring missed the armed consumer.")
    @State
    public static class ArmThenLook
    {
        private final Doorbell doorbell = new Doorbell();
        private final ReadyQueue<String> queue = ReadyQueue.wakingWith(doorbell);
        private final ReadyQueue.Entry<String> entry = queue.entry("watch");

        /** Marks, as the dispatcher does after its fence. Producer actor thread. */
        @Actor
        public void producer()
        {
            entry.mark();
        }

        /**
         * Arms, then looks. Consumer actor thread (the doorbell's owner).
         *
         * @param result r1: whether the look found the entry.
         */
        @Actor
        public void consumer(final ZZ_Result result)
        {
            doorbell.arm();
            result.r1 = !queue.isEmpty();
        }

        /**
         * @param result r2: whether a ring disarmed the doorbell.
         */
        @Arbiter
        public void arbiter(final ZZ_Result result)
        {
            result.r2 = !doorbell.isArmed();
        }
    }

    private static VarHandle work(final Class<?> owner)
    {
        try
        {
            return MethodHandles.lookup().findVarHandle(owner, "work", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }
}
