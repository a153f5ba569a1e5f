package io.ringwatch.engine.watch;

import io.ringwatch.engine.idle.Doorbell;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The pull watchers (or anything else) that have something for one consumer thread, so that it
 * visits only those instead of polling them all: the consumer makes an {@link Entry} per watcher
 * and hands it to the watcher ({@link PullWatcher#readyIn}); the engine's dispatcher marks the
 * entry whenever it hands the watcher something, and the consumer {@link #poll() takes} the marked
 * entries on its own thread. The dispatcher runs only this class's code, never the consumer's, so a
 * consumer that is slow, blocks or never drains delays no other watcher.
 * <p>
 * An entry is marked at most once at a time: from its mark until the consumer {@link Entry#unmark()
 * unmarks} it, also while the consumer keeps it in a list of its own, further marks do nothing. So
 * the queue never holds more entries than there are, an intrusive link makes it allocation-free (a
 * lock-free stack, Treiber, that the consumer empties in one swap), and a consumer that keeps
 * entries it cannot serve yet (a client that does not read) costs the dispatcher one read per
 * hand-over.
 * <p>
 * Protocol, so that no entry is left with work and unvisited. A producer makes its work visible,
 * issues a full fence, then marks (the dispatcher does); the consumer unmarks (a store and a full
 * fence), then looks for work (polls the watcher). The two are a Dekker pair: either the look sees
 * the work or the mark finds the entry unmarked and adds it again. When a mark adds an entry, the
 * queue wakes its consumer: it rings the queue's {@link Doorbell}, which the consumer arms, checks
 * {@link #isEmpty()} once more and parks on (the doorbell's protocol, so no wake-up is lost), or,
 * for a queue {@link #inside} another, marks the queue's own entry in that one, so that a consumer
 * visits only the groups that have ready entries and, in them, only those entries (jcstress:
 * {@code ReadyQueueStress}).
 * <p>
 * Threading: {@link Entry#mark()} from any thread; everything else from the one consumer thread.
 * Allocation: {@link #entry} allocates the entry; nothing else allocates.
 *
 * @param <A> what the consumer attaches to each entry (its watch).
 */
public final class ReadyQueue<A>
{
    private static final VarHandle HEAD;
    private static final VarHandle MARKED;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(ReadyQueue.class, "head", Entry.class);
            MARKED = lookup.findVarHandle(Entry.class, "marked", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Doorbell doorbell;
    private final Entry<?> parent;
    /** The entries marked since the consumer last emptied the stack, newest first. */
    @SuppressWarnings("unused")
    private volatile Entry<A> head;
    /** The entries the consumer emptied the stack of and has yet to take, oldest first; consumer only. */
    private Entry<A> taken;

    private ReadyQueue(final Doorbell doorbell, final Entry<?> parent)
    {
        this.doorbell = doorbell;
        this.parent = parent;
    }

    /**
     * A queue whose consumer parks on {@code doorbell}: a mark that adds an entry rings it. Any
     * thread; allocates the queue.
     *
     * @param doorbell the doorbell the consumer parks on.
     * @param <A>      what the consumer attaches to each entry.
     * @return a new, empty queue.
     */
    public static <A> ReadyQueue<A> wakingWith(final Doorbell doorbell)
    {
        return new ReadyQueue<>(Objects.requireNonNull(doorbell, "doorbell"), null);
    }

    /**
     * A queue inside another: a mark that adds an entry to this queue marks {@code parent}, this
     * queue's own entry in the other, which wakes that queue's consumer in turn. The same thread
     * consumes both. Any thread; allocates the queue.
     *
     * @param parent the entry that stands for this queue in the outer one.
     * @param <A>    what the consumer attaches to each entry.
     * @return a new, empty queue.
     */
    public static <A> ReadyQueue<A> inside(final Entry<?> parent)
    {
        return new ReadyQueue<>(null, Objects.requireNonNull(parent, "parent"));
    }

    /**
     * Makes an entry of this queue for {@code attachment}, unmarked: hand it to a watcher with
     * {@link PullWatcher#readyIn}, or mark it yourself. Any thread; allocates the entry.
     *
     * @param attachment what {@link Entry#attachment()} returns.
     * @return the new entry.
     */
    public Entry<A> entry(final A attachment)
    {
        return new Entry<>(this, attachment);
    }

    /**
     * Takes one marked entry, in the order they were marked as far as one swap of the stack tells
     * (the order is not a contract). The entry stays marked, so that no mark adds it again until the
     * consumer {@link Entry#unmark() unmarks} it, which it must do before it looks for the work.
     * Consumer thread; no allocation.
     *
     * @return a marked entry, or null if none is marked that the consumer has not taken.
     */
    public Entry<A> poll()
    {
        if (taken == null)
        {
            taken = takeAll();
            if (taken == null)
            {
                return null;
            }
        }
        final Entry<A> entry = taken;
        taken = entry.next;
        entry.next = null;
        return entry;
    }

    /**
     * Hands {@code consumer} every marked entry, as {@link #poll()} would one by one, each still
     * marked. Consumer thread; no allocation (but what the consumer does).
     *
     * @param consumer receives each entry; it unmarks one before it looks for its work.
     * @return how many entries it received.
     */
    public int drain(final Consumer<? super Entry<A>> consumer)
    {
        int count = 0;
        for (Entry<A> entry = poll(); entry != null; entry = poll())
        {
            consumer.accept(entry);
            count++;
        }
        return count;
    }

    /**
     * @return whether no entry is marked that the consumer has yet to take (a consumer that arms
     *         its doorbell asks this last before it parks). Consumer thread; no allocation.
     */
    public boolean isEmpty()
    {
        return taken == null && HEAD.getVolatile(this) == null;
    }

    @SuppressWarnings("unchecked")
    private Entry<A> takeAll()
    {
        if (HEAD.getVolatile(this) == null)
        {
            return null;
        }
        Entry<A> entry = (Entry<A>)HEAD.getAndSet(this, (Entry<A>)null);
        // The stack is newest first: reversed, entries are served in turn.
        Entry<A> oldestFirst = null;
        while (entry != null)
        {
            final Entry<A> rest = entry.next;
            entry.next = oldestFirst;
            oldestFirst = entry;
            entry = rest;
        }
        return oldestFirst;
    }

    @SuppressWarnings("unchecked")
    private void push(final Entry<A> added)
    {
        Entry<A> current;
        do
        {
            current = (Entry<A>)HEAD.getVolatile(this);
            added.next = current;
        }
        while (!HEAD.compareAndSet(this, current, added));
        // The compare-and-set above orders the push before the reads below (volatile accesses are
        // totally ordered): a consumer that armed and then found the queue empty is rung.
        if (parent != null)
        {
            parent.mark();
        }
        else
        {
            doorbell.ringAfterFence();
        }
    }

    /**
     * One member of a {@link ReadyQueue}: its mark, its link and what the consumer attached to it.
     * It belongs to the queue that made it. Threading: {@link #mark()} from any thread, the rest
     * from the queue's consumer thread (or any thread for the racy reads). Allocation: none.
     *
     * @param <A> what the consumer attached.
     */
    public static final class Entry<A>
    {
        private final ReadyQueue<A> queue;
        private final A attachment;
        @SuppressWarnings("unused")
        private volatile int marked;
        private Entry<A> next;

        private Entry(final ReadyQueue<A> queue, final A attachment)
        {
            this.queue = queue;
            this.attachment = attachment;
        }

        /**
         * @return what the consumer attached when it made the entry. Any thread.
         */
        public A attachment()
        {
            return attachment;
        }

        /**
         * Marks the entry and adds it to its queue unless it is marked already, then wakes the
         * queue's consumer. Call after making the work visible and a full fence (without it the read
         * of the mark may come before the work is visible and find a mark the consumer is about to
         * clear). Any thread; lock-free; no allocation; an unpark only when the consumer parks.
         *
         * @return true if this call added the entry; false if it was marked (the consumer has yet to
         *         look at it anyway).
         */
        public boolean mark()
        {
            if ((int)MARKED.getVolatile(this) != 0 || !MARKED.compareAndSet(this, 0, 1))
            {
                return false;
            }
            queue.push(this);
            return true;
        }

        /**
         * Clears the mark of an entry the consumer took; the consumer looks for the work only after
         * this call (it ends with a full fence), so a hand-over its look misses marks the entry
         * again. Consumer thread; no allocation.
         */
        public void unmark()
        {
            MARKED.setVolatile(this, 0);
            // The look that follows may be an acquire load, which may pass a volatile store.
            VarHandle.fullFence();
        }

        /**
         * Marks again an entry the consumer unmarked and that may still have work, without adding
         * it to the queue: the consumer keeps it in a list of its own. Consumer thread; no
         * allocation.
         *
         * @return true if the consumer holds it marked now; false if a producer marked it meanwhile
         *         (then it is in the queue again, and the consumer must not keep it as well).
         */
        public boolean remark()
        {
            return MARKED.compareAndSet(this, 0, 1);
        }

        /**
         * @return whether the entry is marked now (a racy read, for tests and sweeps). Any thread.
         */
        public boolean isMarked()
        {
            return (int)MARKED.getVolatile(this) != 0;
        }
    }
}
