package io.ringwatch.engine.internal.write;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Completes a future with what an asynchronous lease command decided (read from the command by
 * {@code result}), or with the typed error that refused it. Allocated per call; completed on the
 * thread that completes writes.
 *
 * @param <T> the result's type.
 */
final class LeaseFutureCompletion<T> implements WriteCompletion
{
    private final CompletableFuture<T> future;
    private final Function<WriteCommand, T> result;

    /**
     * @param future completed once, with the result or the command's error.
     * @param result reads the result from the completed command (on the completing thread).
     */
    LeaseFutureCompletion(final CompletableFuture<T> future, final Function<WriteCommand, T> result)
    {
        this.future = future;
        this.result = result;
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
            future.complete(result.apply(command));
        }
    }
}
