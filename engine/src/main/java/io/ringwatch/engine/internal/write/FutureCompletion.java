package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Completes a future with a write's result. Allocated per asynchronous write of the
 * convenient API. The future completes on the writer thread (the journal thread with a journal),
 * so a dependent stage added with a non-async method runs there: use the {@code *Async} variants
 * for anything slow.
 */
final class FutureCompletion implements WriteCompletion
{
    private final CompletableFuture<WriteResult> write;
    private final CompletableFuture<TxnResult> txn;

    private FutureCompletion(final CompletableFuture<WriteResult> write, final CompletableFuture<TxnResult> txn)
    {
        this.write = write;
        this.txn = txn;
    }

    static FutureCompletion forWrite(final CompletableFuture<WriteResult> future)
    {
        return new FutureCompletion(future, null);
    }

    static FutureCompletion forTxn(final CompletableFuture<TxnResult> future)
    {
        return new FutureCompletion(null, future);
    }

    @Override
    public void complete(final WriteCommand command)
    {
        if (command.resultError != null)
        {
            if (write != null)
            {
                write.completeExceptionally(command.resultError);
            }
            else
            {
                txn.completeExceptionally(command.resultError);
            }
        }
        else if (write != null)
        {
            write.complete(new WriteResult(command.resultRevision, command.resultSucceeded, command.resultDeleted,
                command.resultPrevKvs == null ? List.of() : command.resultPrevKvs));
        }
        else
        {
            txn.complete(command.resultTxn);
        }
    }
}
