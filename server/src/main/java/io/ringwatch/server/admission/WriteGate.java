package io.ringwatch.server.admission;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;

import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Holds the write calls (KV Put, DeleteRange and Txn) that would take the engine past a revision
 * limit, through gRPC's own flow control: a call starts as usual, but the request message it asks
 * for is not asked of the transport ({@link ServerCall#request}) until the limit leaves room for
 * it, so the handler, and the engine, see no write. The limit is set by {@link WriteAdmission}
 * (the slowest reading watch's position plus the high mark); the gate itself compares it with the
 * engine's current revision plus the write calls it let through that have not answered yet, on
 * every write call, so writes stop at the limit even between two measurements. Nothing blocks: the transport's thread returns at once and the held
 * call costs its stream and the bytes the client already sent. A client with a bounded number of
 * calls in flight (jetcd, etcd's Go client) therefore slows to what the watchers take; the calls
 * held at once are bounded, and a write that arrives while {@code maxHeld} are held is refused
 * with etcd's own overload error ({@code RESOURCE_EXHAUSTED}, "etcdserver: too many requests"),
 * which changes nothing. A held call that the client cancels leaves the queue at once (on the
 * thread that tells of the cancel; a scan of the calls held): it no longer counts toward
 * {@code maxHeld} and is never let through. Reads, compaction and every other service pass
 * untouched.
 *
 * <p>Threads: gRPC's call the interceptor; one thread (the one measuring the backlog) calls
 * {@link #admitThrough}; a held call is released on that thread or on a transport thread
 * ({@code ServerCall.request} may be called from any thread). Allocates a forwarding call per
 * write call and one record per call held.
 */
public final class WriteGate implements ServerInterceptor, AutoCloseable
{
    /** The most write calls held at once by default. */
    public static final int DEFAULT_MAX_HELD = 4_096;
    /** etcd's ErrGRPCTooManyRequests message. */
    public static final String TOO_MANY_REQUESTS = "etcdserver: too many requests";
    private static final Set<String> WRITES = Set.of(KVGrpc.getPutMethod().getFullMethodName(),
        KVGrpc.getDeleteRangeMethod().getFullMethodName(), KVGrpc.getTxnMethod().getFullMethodName());

    /** No limit: every write passes. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    /** Shut: no write passes. */
    public static final long SHUT = Long.MIN_VALUE;

    private static final int WAITING = 0;
    private static final int PASSED = 1;
    private static final int ENDED = 2;

    private final LongSupplier currentRevision;
    private final int maxHeld;
    private final Queue<HeldRequest> held = new ConcurrentLinkedQueue<>();
    private final AtomicInteger heldNow = new AtomicInteger();
    /** Write calls let through and not closed yet: their revisions may not be applied yet. */
    private final AtomicLong passing = new AtomicLong();
    private final LongAdder heldTotal = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private volatile long limit = UNLIMITED;

    /**
     * @param currentRevision the engine's current revision.
     * @param maxHeld         the most write calls held at once; more are refused meanwhile.
     * @throws IllegalArgumentException if {@code maxHeld} is not positive.
     */
    public WriteGate(final LongSupplier currentRevision, final int maxHeld)
    {
        if (maxHeld <= 0)
        {
            throw new IllegalArgumentException("the calls held must be bounded by a positive number: " + maxHeld);
        }
        this.currentRevision = Objects.requireNonNull(currentRevision, "currentRevision");
        this.maxHeld = maxHeld;
    }

    /**
     * Starts a call: a write through the gate, anything else as it is.
     *
     * @param call    the call.
     * @param headers its headers.
     * @param next    the handler.
     * @param <ReqT>  the request type.
     * @param <RespT> the response type.
     * @return the call's listener.
     */
    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(final ServerCall<ReqT, RespT> call, final Metadata headers,
        final ServerCallHandler<ReqT, RespT> next)
    {
        if (!WRITES.contains(call.getMethodDescriptor().getFullMethodName()))
        {
            return next.startCall(call, headers);
        }
        if (heldNow.get() >= maxHeld && room() <= 0)
        {
            refused.increment();
            call.close(Status.RESOURCE_EXHAUSTED.withDescription(TOO_MANY_REQUESTS), new Metadata());
            return new ServerCall.Listener<>()
            {
            };
        }
        final Gated<ReqT, RespT> gated = new Gated<>(call);
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(gated, headers))
        {
            @Override
            public void onComplete()
            {
                gated.ended();
                super.onComplete();
            }

            @Override
            public void onCancel()
            {
                gated.ended();
                super.onCancel();
            }
        };
    }

    /**
     * Sets the highest revision writes may take the engine to, and releases the held calls the new
     * limit leaves room for (one revision each). One thread at a time.
     *
     * @param revision the limit, {@link #UNLIMITED} or {@link #SHUT}.
     */
    public void admitThrough(final long revision)
    {
        limit = revision;
        release();
    }

    /**
     * @return the highest revision writes may take the engine to ({@link #UNLIMITED}, {@link #SHUT}).
     */
    public long limit()
    {
        return limit;
    }

    /**
     * @return write calls held now.
     */
    public int heldNow()
    {
        return heldNow.get();
    }

    /**
     * @return write calls let through that have not ended yet (their writes may not be applied).
     */
    public long passing()
    {
        return passing.get();
    }

    /**
     * @return write calls held since the gate was made (each counted once, however long held).
     */
    public long heldTotal()
    {
        return heldTotal.sum();
    }

    /**
     * @return write calls refused because {@code maxHeld} were held.
     */
    public long refused()
    {
        return refused.sum();
    }

    /**
     * Lifts the limit for good, releasing the held calls: a stopping server lets them finish.
     */
    @Override
    public void close()
    {
        admitThrough(UNLIMITED);
    }

    /** Writes the limit still leaves room for: one revision each, counting those passing. */
    private long room()
    {
        final long through = limit;
        if (through == UNLIMITED)
        {
            return UNLIMITED;
        }
        if (through == SHUT)
        {
            return 0;
        }
        return through - currentRevision.getAsLong() - passing.get();
    }

    private void request(final Gated<?, ?> call, final int messages)
    {
        if (heldNow.get() == 0 && room() > 0)
        {
            call.pass(messages);
            return;
        }
        heldNow.incrementAndGet();
        heldTotal.increment();
        held.add(new HeldRequest(call, messages));
        if (call.hasEnded())
        {
            // It ended before it was queued, so its end did not find it there.
            forget(call);
        }
        // The limit may have been raised after the check above and the queue drained before the add.
        release();
    }

    /**
     * Takes a call that ended while held (the client cancelled it) out of the queue, so that it no
     * longer counts toward {@code maxHeld} nor waits to be released. O(calls held).
     */
    private void forget(final Gated<?, ?> call)
    {
        for (final HeldRequest request : held)
        {
            // Whichever of this and release() removes a request counts it out of heldNow.
            if (request.call == call && held.remove(request))
            {
                heldNow.decrementAndGet();
            }
        }
    }

    private void release()
    {
        HeldRequest request;
        // Room is looked at again for each call: each one passed takes some, and other threads may release too.
        while (room() > 0 && (request = held.poll()) != null)
        {
            heldNow.decrementAndGet();
            request.call.pass(request.messages);
        }
    }

    /** A call's request for messages, not yet passed to the transport. */
    private record HeldRequest(Gated<?, ?> call, int messages)
    {
    }

    /**
     * A write call whose requests for messages go through the gate, counted as passing from its
     * first request let through until it ends (completes or is cancelled); one that ends while
     * held is never counted and leaves the queue at once.
     */
    private final class Gated<ReqT, RespT> extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT>
    {
        private final AtomicInteger state = new AtomicInteger();

        Gated(final ServerCall<ReqT, RespT> call)
        {
            super(call);
        }

        @Override
        public void request(final int messages)
        {
            WriteGate.this.request(this, messages);
        }

        void ended()
        {
            final int was = state.getAndSet(ENDED);
            if (was == PASSED)
            {
                passing.decrementAndGet();
                if (heldNow.get() > 0)
                {
                    // Its write is applied (or failed): the room it took may let a held one through.
                    release();
                }
            }
            else if (was == WAITING && heldNow.get() > 0)
            {
                forget(this);
            }
        }

        boolean hasEnded()
        {
            return state.get() == ENDED;
        }

        void pass(final int messages)
        {
            if (state.compareAndSet(WAITING, PASSED))
            {
                passing.incrementAndGet();
            }
            delegate().request(messages);
        }
    }
}
