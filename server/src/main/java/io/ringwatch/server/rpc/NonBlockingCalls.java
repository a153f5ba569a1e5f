package io.ringwatch.server.rpc;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallExecutorSupplier;

import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses the thread each call runs on, for a server built with gRPC's {@code directExecutor()}:
 * the calls that never block (KV Put, DeleteRange and Txn, which hand their write to the engine
 * and answer when it completes) run on the transport's own event-loop thread, and every other call
 * on this supplier's executor for calls that may block, so that no blocking call ever holds an
 * event loop. A put then costs no hand-over to another thread, and no wake-up of one: with a
 * server executor other than the direct one, gRPC looks every call up on that executor first,
 * which was a park and an unpark per put even though the put itself ran on the transport's thread.
 *
 * <p>The executor for calls that may block is a cached pool of daemon threads named
 * {@code <name>-call-<n>}, as gRPC's default executor (a call blocked on the engine never waits for
 * a free thread). Thread-safe; {@link #getExecutor} allocates nothing; {@link #close()} stops the
 * pool once the server has terminated.
 */
public final class NonBlockingCalls implements ServerCallExecutorSupplier, AutoCloseable
{
    /** Runs a non-blocking call on the thread that delivers it: the transport's event loop. */
    public static final Executor TRANSPORT_THREAD = Runnable::run;
    private static final Set<String> NON_BLOCKING = Set.of(
        "etcdserverpb.KV/Put", "etcdserverpb.KV/DeleteRange", "etcdserverpb.KV/Txn");

    private final ExecutorService mayBlock;

    /**
     * @param name names the threads of the pool for calls that may block.
     */
    public NonBlockingCalls(final String name)
    {
        mayBlock = Executors.newCachedThreadPool(new CallThreads(name + "-call-"));
    }

    /**
     * @param call     the call about to start.
     * @param metadata its headers.
     * @param <ReqT>   its request type.
     * @param <RespT>  its response type.
     * @return {@link #TRANSPORT_THREAD} for a call that never blocks, else the pool for calls that may.
     */
    @Override
    public <ReqT, RespT> Executor getExecutor(final ServerCall<ReqT, RespT> call, final Metadata metadata)
    {
        return isNonBlocking(call.getMethodDescriptor().getFullMethodName()) ? TRANSPORT_THREAD : mayBlock;
    }

    /**
     * @param fullMethodName a gRPC method's full name, e.g. {@code etcdserverpb.KV/Put}.
     * @return whether the call runs on the transport's thread.
     */
    public static boolean isNonBlocking(final String fullMethodName)
    {
        return NON_BLOCKING.contains(fullMethodName);
    }

    /**
     * Stops the pool for calls that may block: calls already on it finish, none starts. Call once
     * the server has terminated.
     */
    @Override
    public void close()
    {
        mayBlock.shutdown();
    }

    /** Daemon threads with a server's name and a number, so a thread dump tells whose they are. */
    private static final class CallThreads implements ThreadFactory
    {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger();

        CallThreads(final String prefix)
        {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(final Runnable task)
        {
            final Thread thread = new Thread(task, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
