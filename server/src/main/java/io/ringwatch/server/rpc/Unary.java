package io.ringwatch.server.rpc;

import io.grpc.stub.StreamObserver;

import java.util.function.Supplier;

/**
 * Answers a unary call: the response, or the error etcd would send for what the call threw
 * ({@link EtcdErrors#fromEngine}). Stateless.
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
}
