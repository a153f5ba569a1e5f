package io.ringwatch.server.rpc;

import io.grpc.stub.StreamObserver;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Answers a unary call: the response, or the error etcd would send for what the call threw
 * ({@link EtcdErrors#fromEngine}); at once ({@link #answer}), or when a future completes
 * ({@link #answerLater}), so that a write does not hold a gRPC thread while the engine applies
 * it. Stateless.
 */
public final class Unary
{
    private Unary()
    {
    }

    /**
     * Runs {@code call} on the calling thread and completes {@code response} with its result or error.
     *
     * @param response the call's observer.
     * @param call     computes the response; may throw.
     * @param <T>      the response type.
     */
    public static <T> void answer(final StreamObserver<T> response, final Supplier<T> call)
    {
        final T answer;
        try
        {
            answer = call.get();
        }
        catch (final RuntimeException e)
        {
            response.onError(EtcdErrors.fromEngine(e));
            return;
        }
        response.onNext(answer);
        response.onCompleted();
    }

    /**
     * Starts {@code call} on the calling thread and completes {@code response} when the future it
     * returns completes, on the thread that completes it (for the engine's writes: its writer or
     * journal thread, so the continuation must be short and must not block).
     *
     * @param response the call's observer.
     * @param call     starts the work; may throw before it has started anything.
     * @param <T>      the response type.
     */
    public static <T> void answerLater(final StreamObserver<T> response, final Supplier<CompletableFuture<T>> call)
    {
        final CompletableFuture<T> answer;
        try
        {
            answer = call.get();
        }
        catch (final RuntimeException e)
        {
            response.onError(EtcdErrors.fromEngine(e));
            return;
        }
        answer.whenComplete((value, error) ->
        {
            if (error != null)
            {
                response.onError(EtcdErrors.fromEngine(unwrap(error)));
                return;
            }
            response.onNext(value);
            response.onCompleted();
        });
    }

    private static RuntimeException unwrap(final Throwable error)
    {
        final Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof RuntimeException ? (RuntimeException)cause : new IllegalStateException(cause);
    }
}
