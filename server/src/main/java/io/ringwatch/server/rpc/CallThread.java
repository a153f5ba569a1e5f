package io.ringwatch.server.rpc;

import io.grpc.netty.shaded.io.netty.util.concurrent.EventExecutor;
import io.grpc.netty.shaded.io.netty.util.internal.ThreadExecutorMap;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The transport thread a call started on, as an executor, so that a call answered later is
 * answered there ({@link Unary#answerLater}). The engine completes every write on its one writer
 * thread (or its journal thread), whatever connection the write came from; gRPC frames a response
 * on the thread that sends it (headers, the message serialized into a pooled buffer, trailers,
 * each queued for the connection's event loop), so answering there made the writer do that for
 * every connection: 39-48% of the writer's samples in six saturated in-memory profiles (perf-reports
 * README, issue 14), and one thread's worth of framing for all connections. Handed back, each
 * connection's event loop frames its own responses and the writer only queues a task, as gRPC
 * would have queued the response's writes anyway.
 *
 * <p>Netty keeps no public way to ask which event loop runs the current thread; its own
 * {@code ThreadExecutorMap} (internal, in the shaded copy grpc-netty-shaded pins) answers it, and
 * {@code UnaryAnswerThreadTest} fails should a grpc upgrade drop it. Thread-safe; {@link #current()}
 * allocates only the first time a thread asks.
 */
final class CallThread
{
    /** Per thread: its event loop, made safe to hand work to; null for a thread that is none. */
    private static final ThreadLocal<Executor> LOOP = ThreadLocal.withInitial(CallThread::ofCurrentThread);

    private CallThread()
    {
    }

    /**
     * @return the event loop running the calling thread, or null where it is not a Netty event
     *         loop (then the caller answers on the completing thread, as before).
     */
    static Executor current()
    {
        return LOOP.get();
    }

    private static Executor ofCurrentThread()
    {
        final EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null)
        {
            return null;
        }
        // A loop shutting down refuses tasks: the answer then runs on the completing thread, as it
        // did before, rather than throw into the engine's writer (the connection is going anyway).
        return task ->
        {
            try
            {
                loop.execute(task);
            }
            catch (final RejectedExecutionException e)
            {
                task.run();
            }
        };
    }
}
