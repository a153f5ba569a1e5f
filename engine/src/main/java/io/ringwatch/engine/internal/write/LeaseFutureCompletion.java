package io.ringwatch.engine.internal.write;

import java.util.concurrent.CompletableFuture;

/**
 * Completes a future with the TTL an asynchronous keep-alive renewed its lease to, or with the
 * error that refused it. Allocated per call; completed on the thread that completes writes.
 */
final class LeaseFutureCompletion implements WriteCompletion
{
    private final CompletableFuture<Long> future;

    LeaseFutureCompletion(final CompletableFuture<Long> future)
    {
        this.future = future;
    }

    @Override
    public void complete(final WriteCommand command)
    {
        if (command.resultError != null)
        {
            future.completeExceptionally(command.resultError);
        }
        else
        {
            future.complete((Long)command.resultValue);
        }
    }
}
