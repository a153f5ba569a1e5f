package io.ringwatch.replay;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.ChangeView;
import io.ringwatch.persistence.RevisionRecord;

/**
 * Writes history into a fresh engine: optionally a base state first (in transactions of at most
 * {@link #BASE_TXN_KEYS} keys and about {@link #BASE_TXN_BYTES} bytes), then one transaction per
 * source revision holding its puts and deletes in order, at the pace asked for. Transactions are
 * pipelined (at most {@link #MAX_IN_FLIGHT} outstanding) and each result is checked: every
 * revision must become exactly the next target revision, so from revision 1 with no base the
 * target log is revision for revision the same as the source. With a {@link LeaseReplay} the
 * source's leases go too: puts keep their lease, grants precede the revision they precede in the
 * source, and a lease's end is re-made by revoking it in the target. One command thread; allocates
 * the ops of each revision.
 */
final class Republisher
{
    static final int BASE_TXN_KEYS = 512;
    /** Well under the log's default cap on one revision (4 MiB), so a base txn is never refused for size. */
    static final long BASE_TXN_BYTES = 1 << 20;
    static final int MAX_IN_FLIGHT = 256;

    private final RingWatch engine;
    private final Pacer pacer;
    private final LongSupplier nanoClock;
    private final LeaseReplay leases;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private long nextTarget;
    private long revisions;
    private long changes;
    private long baseTxns;

    private record InFlight(long sourceRevision, long targetRevision, CompletableFuture<TxnResult> result)
    {
    }

    /**
     * Creates a republisher over a fresh engine.
     *
     * @param engine    the target engine, holding no revision yet.
     * @param pacer     when each revision is due.
     * @param nanoClock a monotonic clock.
     */
    Republisher(final RingWatch engine, final Pacer pacer, final LongSupplier nanoClock)
    {
        this(engine, pacer, nanoClock, null);
    }

    /**
     * Creates a republisher over a fresh engine that carries the source's leases.
     *
     * @param engine    the target engine, holding no revision yet.
     * @param pacer     when each revision is due.
     * @param nanoClock a monotonic clock.
     * @param leases    the source's lease log over the target's leases; null to carry none (a put
     *                  with a lease then goes in without it).
     */
    Republisher(final RingWatch engine, final Pacer pacer, final LongSupplier nanoClock, final LeaseReplay leases)
    {
        this.engine = engine;
        this.pacer = pacer;
        this.nanoClock = nanoClock;
        this.leases = leases;
        this.nextTarget = engine.currentRevision() + 1;
    }

    /**
     * Writes a base state as puts, waiting for each transaction.
     *
     * @param state the keys, with their values.
     * @throws RepublishException if the engine refuses a transaction.
     */
    void publishBase(final Collection<KeyState> state)
    {
        final List<Op> ops = new ArrayList<>(BASE_TXN_KEYS);
        long bytes = 0;
        for (final KeyState key : state)
        {
            final long size = key.key().length + key.value().length;
            if (!ops.isEmpty() && (ops.size() == BASE_TXN_KEYS || bytes + size > BASE_TXN_BYTES))
            {
                publishBaseTxn(ops);
                bytes = 0;
            }
            ops.add(key.lease() != 0 && leases != null ? Op.put(key.key(), key.value()).withLease(key.lease()) :
                Op.put(key.key(), key.value()));
            bytes += size;
        }
        if (!ops.isEmpty())
        {
            publishBaseTxn(ops);
        }
    }

    /**
     * Publishes one source revision as one transaction, once it is due.
     *
     * @param record the revision.
     * @throws RepublishException if the engine refuses it or an earlier one.
     */
    void publish(final RevisionRecord record)
    {
        waitUntilDue(record.timestampNanos());
        final long source = record.revision();
        if (leases != null)
        {
            leases.before(source);
            if (leases.isEnd(record))
            {
                publishEnd(record);
                return;
            }
        }
        final List<Op> ops = new ArrayList<>(record.changeCount());
        for (int i = 0; i < record.changeCount(); i++)
        {
            final ChangeView change = record.change(i);
            final byte[] key = KeyState.key(change);
            if (change.type() == ChangeType.PUT)
            {
                final byte[] value = new byte[change.valueLength()];
                change.buffer().getBytes(change.valueOffset(), value);
                final long lease = change.lease();
                if (lease != 0 && leases != null)
                {
                    leases.requireHeld(lease, source);
                    ops.add(Op.put(key, value).withLease(lease));
                }
                else
                {
                    ops.add(Op.put(key, value));
                }
            }
            else
            {
                ops.add(Op.delete(key));
            }
        }
        if (inFlight.size() == MAX_IN_FLIGHT)
        {
            complete(inFlight.poll());
        }
        try
        {
            inFlight.add(new InFlight(source, nextTarget, engine.txnAsync(Txn.of(List.of(), ops, List.of()))));
        }
        catch (final RingWatchException ex)
        {
            throw refused(source, ex);
        }
        nextTarget++;
        revisions++;
        changes += ops.size();
    }

    /**
     * Re-makes a source revision that deleted an ended lease's keys by ending the lease in the
     * target, once every earlier revision is in: the target deletes the same keys under one revision.
     */
    private void publishEnd(final RevisionRecord record)
    {
        drain();
        final long made = leases.end(record.revision());
        if (made != nextTarget)
        {
            throw new RepublishException("source revision " + record.revision() + " (the end of a lease) became target revision " +
                made + ", expected " + nextTarget + ": the target's state diverged from the source's");
        }
        nextTarget++;
        revisions++;
        changes += record.changeCount();
    }

    /**
     * Applies the lease records after the last published revision (grants and ends of leases
     * without keys up to {@code to}). No-op without leases.
     *
     * @param to the last source revision published.
     */
    void finishLeases(final long to)
    {
        if (leases != null)
        {
            drain();
            leases.rest(to);
        }
    }

    /**
     * Waits for every outstanding transaction and checks it.
     *
     * @throws RepublishException if the engine refused one.
     */
    void drain()
    {
        while (!inFlight.isEmpty())
        {
            complete(inFlight.poll());
        }
    }

    /**
     * Source revisions published.
     *
     * @return the count.
     */
    long revisions()
    {
        return revisions;
    }

    /**
     * Changes (puts and deletes) published from source revisions.
     *
     * @return the count.
     */
    long changes()
    {
        return changes;
    }

    /**
     * Transactions the base state took.
     *
     * @return the count, 0 without a base.
     */
    long baseTxns()
    {
        return baseTxns;
    }

    private void publishBaseTxn(final List<Op> ops)
    {
        final TxnResult result;
        try
        {
            result = engine.txn(Txn.of(List.of(), ops, List.of()));
        }
        catch (final RingWatchException ex)
        {
            throw new RepublishException("the engine refused the base state: " + ex.getMessage(), ex);
        }
        if (result.revision() != nextTarget)
        {
            throw new RepublishException("a base state transaction became revision " + result.revision() +
                ", expected " + nextTarget);
        }
        nextTarget++;
        baseTxns++;
        ops.clear();
    }

    private void waitUntilDue(final long timestampNanos)
    {
        long delay;
        while ((delay = pacer.delayNanos(timestampNanos, nanoClock.getAsLong())) > 0)
        {
            if (Thread.currentThread().isInterrupted())
            {
                throw new RepublishException("interrupted while waiting to publish the next revision");
            }
            LockSupport.parkNanos(delay);
        }
    }

    private static void complete(final InFlight pending)
    {
        final TxnResult result;
        try
        {
            result = pending.result().join();
        }
        catch (final CompletionException ex)
        {
            throw refused(pending.sourceRevision(), ex.getCause() == null ? ex : ex.getCause());
        }
        if (result.revision() != pending.targetRevision())
        {
            throw new RepublishException("source revision " + pending.sourceRevision() + " became target revision " +
                result.revision() + ", expected " + pending.targetRevision() + ": the target's state diverged from the source's");
        }
    }

    private static RepublishException refused(final long sourceRevision, final Throwable cause)
    {
        return new RepublishException("the engine refused source revision " + sourceRevision + ": " + cause.getMessage(), cause);
    }
}
