package io.ringwatch.server.watch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The members that have something for one consumer thread, so that it visits only those: many
 * threads {@link #mark} a member, the consumer {@link #takeAll() takes} the marked ones and
 * {@link #unmark unmarks} each before it looks at it. A member is marked at most once at a time,
 * and an intrusive link makes the set allocation-free: a lock-free stack (Treiber) that the
 * consumer empties in one swap.
 * <p>
 * Protocol, so that no member is left with work and unvisited. A producer makes its work visible,
 * issues a full fence, then marks; the consumer unmarks (a store and a full fence), then looks for
 * work. The two are a Dekker pair: either the
 * consumer's look sees the work or the producer's mark finds the member unmarked and pushes it
 * again (jcstress: {@code ReadySetStress}). A member stays marked from its push until the consumer
 * unmarks it, also while the consumer holds it in a list of its own; a producer that finds it
 * marked does nothing, since the consumer has yet to look.
 * <p>
 * Threading: {@code mark} from any thread; {@code takeAll}, {@code unmark} and {@link #remark}
 * from the one consumer thread. Allocation: none.
 *
 * @param <M> the member type.
 */
final class ReadySet<M extends ReadySet.Member<M>>
{
    /**
     * What a member of a {@link ReadySet} carries: its mark and its link. A member belongs to one
     * set.
     *
     * @param <M> the member type.
     */
    abstract static class Member<M extends Member<M>>
    {
        @SuppressWarnings("unused")
        private volatile int marked;
        M next;

        /**
         * @return whether the member is marked now (a racy read, for tests and sweeps).
         */
        final boolean isMarked()
        {
            return (int)MARKED.getVolatile(this) != 0;
        }
    }

    private static final VarHandle MARKED;
    private static final VarHandle HEAD;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            MARKED = lookup.findVarHandle(Member.class, "marked", int.class);
            HEAD = lookup.findVarHandle(ReadySet.class, "head", Member.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private volatile M head;

    /**
     * Marks {@code member} and adds it to the set unless it is marked already. Call after making
     * the member's work visible and a full fence (without it the read of the mark may come before
     * the work is visible, and find a mark the consumer is about to clear). Any thread; no
     * allocation.
     *
     * @param member the member with work.
     * @return true if this call added it (the caller may wake the consumer; a false means the
     *         consumer has yet to look at it anyway).
     */
    boolean mark(final M member)
    {
        if ((int)MARKED.getVolatile(member) != 0 || !MARKED.compareAndSet(member, 0, 1))
        {
            return false;
        }
        push(member);
        return true;
    }

    /**
     * Empties the set. Consumer thread; no allocation.
     *
     * @return the members that were in it, oldest first, linked by {@link #next}; null if none.
     *         They stay marked.
     */
    M takeAll()
    {
        if (HEAD.getVolatile(this) == null)
        {
            return null;
        }
        @SuppressWarnings("unchecked")
        M member = (M)HEAD.getAndSet(this, (M)null);
        // The stack is newest first: reverse it so that the members are served in turn.
        M oldestFirst = null;
        while (member != null)
        {
            final M rest = member.next;
            member.next = oldestFirst;
            oldestFirst = member;
            member = rest;
        }
        return oldestFirst;
    }

    /**
     * @param member a member from {@link #takeAll()}.
     * @return the member after it in what {@link #takeAll()} returned, or null. Consumer thread.
     */
    M next(final M member)
    {
        final M after = member.next;
        member.next = null;
        return after;
    }

    /**
     * Clears the member's mark; the consumer looks for its work only after this call (a full
     * fence). Consumer thread; no allocation.
     *
     * @param member a member the consumer took.
     */
    void unmark(final M member)
    {
        MARKED.setVolatile(member, 0);
        // The look for work that follows may be an acquire load, which may pass a volatile store.
        VarHandle.fullFence();
    }

    /**
     * Marks again a member the consumer unmarked and that may still have work, without adding it to
     * the set: the consumer keeps it in a list of its own. Consumer thread; no allocation.
     *
     * @param member a member the consumer unmarked.
     * @return true if the consumer holds it marked now; false if a producer marked it meanwhile
     *         (then it is in the set again, and the consumer must not keep it as well).
     */
    boolean remark(final M member)
    {
        return MARKED.compareAndSet(member, 0, 1);
    }

    /**
     * @return whether the set is empty now (a racy read). Any thread.
     */
    boolean isEmpty()
    {
        return HEAD.getVolatile(this) == null;
    }

    @SuppressWarnings("unchecked")
    private void push(final M member)
    {
        M current;
        do
        {
            current = (M)HEAD.getVolatile(this);
            member.next = current;
        }
        while (!HEAD.compareAndSet(this, current, member));
    }
}
