package io.ringwatch.server.rpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;

import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Runs the calls that never block (KV Put, DeleteRange and Txn, which hand their write to the
 * engine and answer when it completes) on the transport's own thread, and every other call on
 * the server's executor. A put then costs no hand-over to an executor thread and no wake-up of
 * one: on a 2-core machine each such hand-over is a context switch per request. Stateless and
 * thread-safe; allocates nothing per call.
 */
public final class NonBlockingCalls implements ServerCallExecutorSupplier
{
    private static final Executor DIRECT = Runnable::run;
    private static final Set<String> NON_BLOCKING = Set.of(
        "etcdserverpb.KV/Put", "etcdserverpb.KV/DeleteRange", "etcdserverpb.KV/Txn");

    /**
     * @param call     the call about to start.
     * @param metadata its headers.
     * @param <ReqT>   its request type.
     * @param <RespT>  its response type.
     * @return a direct executor for a non-blocking call, else null (the server's executor).
     */
    @Override
    public <ReqT, RespT> Executor getExecutor(final ServerCall<ReqT, RespT> call, final Metadata metadata)
    {
        return NON_BLOCKING.contains(call.getMethodDescriptor().getFullMethodName()) ? DIRECT : null;
    }
}
