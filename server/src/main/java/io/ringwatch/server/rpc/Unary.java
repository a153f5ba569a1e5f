package io.ringwatch.server.rpc;

import io.grpc.stub.StreamObserver;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Answers a unary call: the response, or the error etcd would send for what the call threw
 * ({@link EtcdErrors#fromEngine}); at once ({@link #answer}), or when a future completes
 * ({@link #answerLater}), so that a write does not hold a gRPC thread while the engine applies
 * it; the later answer is sent from the transport thread the call started on ({@link CallThread}).
 * Stateless.
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
     * returns completes: on the calling thread's event loop when the call started on one (a put,
     * delete or txn on the transport's thread: {@link NonBlockingCalls}), so that gRPC frames the
     * response there and not on the engine's writer, which completes the writes of every
     * connection; else on the thread that completes it (the calling thread, where it is already
     * complete).
     * Stages {@code call} chains onto the engine's future still run on the completing thread (the
     * writer or journal thread): they must be short and must not block.
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
        final Executor callThread = answer.isDone() ? null : CallThread.current();
        final BiConsumer<T, Throwable> send = (value, error) ->
        {
            if (error != null)
            {
                response.onError(EtcdErrors.fromEngine(unwrap(error)));
                return;
            }
            response.onNext(value);
            response.onCompleted();
        };
        if (callThread == null)
        {
            answer.whenComplete(send);
        }
        else
        {
            answer.whenCompleteAsync(send, callThread);
        }
    }

    private static RuntimeException unwrap(final Throwable error)
    {
        final Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof RuntimeException ? (RuntimeException)cause : new IllegalStateException(cause);
    }
}
