package io.ringwatch.server.rpc;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.ringwatch.server.api.etcdserverpb.ClusterGrpc;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.LeaseGrpc;
import io.ringwatch.server.api.etcdserverpb.MaintenanceGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server is built with gRPC's direct executor, so every call starts on the transport's event
 * loop: {@link NonBlockingCalls} must keep there only the calls that never block, and move every
 * other call of every service the server registers to its own pool.
 */
class NonBlockingCallsTest
{
    private static final List<ServiceDescriptor> SERVED = List.of(KVGrpc.getServiceDescriptor(),
        WatchGrpc.getServiceDescriptor(), LeaseGrpc.getServiceDescriptor(), MaintenanceGrpc.getServiceDescriptor(),
        ClusterGrpc.getServiceDescriptor());

    @Test
    void onlyPutDeleteRangeAndTxnStayOnTheTransportThread() throws Exception
    {
        final Set<String> onTransport = new TreeSet<>();
        try (NonBlockingCalls calls = new NonBlockingCalls("t"))
        {
            for (final ServiceDescriptor service : SERVED)
            {
                for (final MethodDescriptor<?, ?> method : service.getMethods())
                {
                    final Executor executor = calls.getExecutor(new CallOf<>(method), new Metadata());
                    if (executor == NonBlockingCalls.TRANSPORT_THREAD)
                    {
                        onTransport.add(method.getFullMethodName());
                    }
                    else
                    {
                        assertTrue(ranOn(executor).startsWith("t-call-"), method.getFullMethodName() + " must leave the event loop");
                    }
                }
            }
        }
        assertEquals(Set.of("etcdserverpb.KV/Put", "etcdserverpb.KV/DeleteRange", "etcdserverpb.KV/Txn"), onTransport);
    }

    @Test
    void theTransportThreadExecutorRunsTheCallWhereItIsDelivered() throws Exception
    {
        final String caller = Thread.currentThread().getName();
        assertEquals(caller, ranOn(NonBlockingCalls.TRANSPORT_THREAD));
    }

    @Test
    void aBlockingCallRunsOnAPoolThreadEvenWhileAnotherOneBlocks() throws Exception
    {
        try (NonBlockingCalls calls = new NonBlockingCalls("t"))
        {
            final Executor pool = calls.getExecutor(new CallOf<>(KVGrpc.getRangeMethod()), new Metadata());
            final CompletableFuture<Void> release = new CompletableFuture<>();
            pool.execute(release::join);
            final String second = ranOn(pool);
            assertTrue(second.startsWith("t-call-"), second);
            assertNotSame(NonBlockingCalls.TRANSPORT_THREAD, pool);
            release.complete(null);
        }
    }

    @Test
    void aClosedSupplierStartsNoMoreBlockingCalls()
    {
        final NonBlockingCalls calls = new NonBlockingCalls("t");
        final Executor pool = calls.getExecutor(new CallOf<>(KVGrpc.getRangeMethod()), new Metadata());
        calls.close();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        assertSame(NonBlockingCalls.TRANSPORT_THREAD, calls.getExecutor(new CallOf<>(KVGrpc.getPutMethod()), new Metadata()));
    }

    private static String ranOn(final Executor executor) throws Exception
    {
        final CompletableFuture<String> thread = new CompletableFuture<>();
        executor.execute(() -> thread.complete(Thread.currentThread().getName()));
        return thread.get(10, TimeUnit.SECONDS);
    }

    /** A call that only names its method: all the supplier looks at. */
    private static final class CallOf<ReqT, RespT> extends ServerCall<ReqT, RespT>
    {
        private final MethodDescriptor<ReqT, RespT> method;

        CallOf(final MethodDescriptor<ReqT, RespT> method)
        {
            this.method = method;
        }

        @Override
        public MethodDescriptor<ReqT, RespT> getMethodDescriptor()
        {
            return method;
        }

        @Override
        public void request(final int numMessages)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendHeaders(final Metadata headers)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendMessage(final RespT message)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close(final Status status, final Metadata trailers)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isCancelled()
        {
            return false;
        }
    }
}
