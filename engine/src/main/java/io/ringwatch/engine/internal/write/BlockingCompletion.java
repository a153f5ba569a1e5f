package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.TxnResult;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A producer thread's reusable rendezvous with the writer for blocking writes: the producer
 * arms it, publishes, and waits; the writer copies the result in and wakes it. One per producer
 * thread, so a blocking write allocates no completion. Spins briefly before parking because
 * most writes complete within microseconds.
 */
final class BlockingCompletion implements WriteCompletion
{
    private static final int SPINS = 2_000;

    private volatile boolean done;
    private Thread waiter;

    long revision;
    boolean succeeded;
    long deleted;
    List<KeyValue> prevKvs;
    TxnResult txn;
    Object value;
    RingWatchException error;

    void arm()
    {
        waiter = Thread.currentThread();
        error = null;
        prevKvs = null;
        txn = null;
        value = null;
        done = false;
    }

    @Override
    public void complete(final WriteCommand command)
    {
        revision = command.resultRevision;
        succeeded = command.resultSucceeded;
        deleted = command.resultDeleted;
        prevKvs = command.resultPrevKvs;
        txn = command.resultTxn;
        value = command.resultValue;
        error = command.resultError;
        done = true;
        LockSupport.unpark(waiter);
    }

    void await()
    {
        for (int i = 0; i < SPINS && !done; i++)
        {
            Thread.onSpinWait();
        }
        while (!done)
        {
            LockSupport.park(this);
        }
        if (error != null)
        {
            throw error;
        }
    }
}
