package io.ringwatch.engine.kv;

import io.ringwatch.engine.errors.InvalidRequestException;

import java.util.List;

/**
 * A small transaction (etcd's Txn): if every {@link Compare} holds, the {@code then}
 * operations are applied, else the {@code orElse} operations; either way atomically, under one
 * revision when anything changes. A branch may nest transactions ({@link Op#txn}) and name the
 * revisions the caller reads at ({@link Op#readAt}), which the writer checks on the chosen path
 * before it writes anything. Immutable and thread-safe.
 */
public final class Txn
{
    private final List<Compare> when;
    private final List<Op> then;
    private final List<Op> orElse;

    private Txn(final List<Compare> when, final List<Op> then, final List<Op> orElse)
    {
        this.when = when;
        this.then = then;
        this.orElse = orElse;
    }

    /**
     * @param when   conditions, all of which must hold (none: always true).
     * @param then   operations applied when they hold.
     * @param orElse operations applied otherwise.
     * @return the transaction.
     * @throws InvalidRequestException on a null list or element.
     */
    public static Txn of(final List<Compare> when, final List<Op> then, final List<Op> orElse)
    {
        try
        {
            return new Txn(List.copyOf(when), List.copyOf(then), List.copyOf(orElse));
        }
        catch (final NullPointerException e)
        {
            throw new InvalidRequestException("transaction lists and their elements must not be null");
        }
    }

    /**
     * @return the conditions.
     */
    public List<Compare> when()
    {
        return when;
    }

    /**
     * @return the operations applied when every condition holds.
     */
    public List<Op> then()
    {
        return then;
    }

    /**
     * @return the operations applied otherwise.
     */
    public List<Op> orElse()
    {
        return orElse;
    }

    @Override
    public String toString()
    {
        return "txn(when " + when + " then " + then + " else " + orElse + ")";
    }
}
