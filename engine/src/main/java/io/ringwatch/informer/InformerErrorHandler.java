package io.ringwatch.informer;

/**
 * Receives what an informer could not handle itself: a handler that threw
 * ({@link HandlerFailedException}), an object a handler mutated ({@link CacheMutationException}),
 * a list that failed and will be retried, the engine closing under the informer. Called from the
 * informer's threads, possibly concurrently: implementations must be thread-safe and quick. An
 * exception it throws, an {@link Error} included, is swallowed.
 */
@FunctionalInterface
public interface InformerErrorHandler
{
    /**
     * @param error what went wrong; the informer carries on unless it says it stopped.
     */
    void onError(Throwable error);
}
