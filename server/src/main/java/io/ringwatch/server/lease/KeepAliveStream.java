package io.ringwatch.server.lease;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseKeepAliveResponse;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.MemberIdentity;

import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * One etcd LeaseKeepAlive stream: each request renews its lease and is answered with the TTL it was
 * renewed to, or TTL 0 when the lease is unknown or has expired (etcd's answer, not an error: the
 * client decides). Any other failure (the engine closed) ends the stream with etcd's error.
 *
 * <p>Threads: gRPC calls {@link #onNext} on its executor, which hands the renewal to the engine
 * without waiting ({@code Leases.keepAliveAsync}); the answer goes out from the thread that
 * completes it (the engine's writer or journal thread), so a stream's renewals in flight hold no
 * thread. The writer completes renewals in order, so answers keep the requests' order. This
 * object's lock serialises the answers (gRPC allows one writer at a time).
 *
 * <p>Flow control: the stream reads at most {@value #WINDOW} requests ahead of its answers, and
 * asks for the next request only once an answer went out while gRPC reports the call ready (the
 * client reads): a client that pipelines keep-alives without reading the answers is held by
 * HTTP/2's window, as etcd's blocking {@code stream.Send} holds it, instead of making the server
 * buffer an answer per request for ever. A cancelled stream answers nothing more. Allocates a
 * response per request.
 */
final class KeepAliveStream implements StreamObserver<LeaseKeepAliveRequest>
{
    /** Requests read ahead of their answers: renewals in flight, never more. */
    static final int WINDOW = 128;

    private final RingWatch engine;
    private final MemberIdentity member;
    private final ServerCallStreamObserver<LeaseKeepAliveResponse> responses;
    /** Told once when the stream ends, however it ends. */
    private final Consumer<KeepAliveStream> onEnd;
    private boolean ended;
    private boolean halfClosed;
    private int inFlight;
    /** Requests owed to the client: answers sent while the call was not ready. */
    private int owed;

    /**
     * Takes the call's inbound flow control: call it from the service method, before gRPC starts
     * the call.
     */
    KeepAliveStream(final RingWatch engine, final MemberIdentity member, final ServerCallStreamObserver<LeaseKeepAliveResponse> responses,
        final Consumer<KeepAliveStream> onEnd)
    {
        this.engine = engine;
        this.member = member;
        this.responses = responses;
        this.onEnd = onEnd;
        responses.disableAutoRequest();
        responses.setOnReadyHandler(this::onReady);
        responses.setOnCancelHandler(this::onCancel);
        responses.request(WINDOW);
    }

    @Override
    public void onNext(final LeaseKeepAliveRequest request)
    {
        final long id = request.getID();
        synchronized (this)
        {
            inFlight++;
        }
        try
        {
            engine.leases().keepAliveAsync(id).whenComplete((ttl, error) -> answer(id, ttl, error));
        }
        catch (final RuntimeException e)
        {
            answer(id, null, e);
        }
    }

    @Override
    public synchronized void onError(final Throwable t)
    {
        end();
    }

    /** The client sent its last request: the stream ends once every renewal in flight is answered. */
    @Override
    public synchronized void onCompleted()
    {
        halfClosed = true;
        endIfAnswered();
    }

    private synchronized void onCancel()
    {
        end();
    }

    /**
     * The server stops: the stream ends now with etcd's UNAVAILABLE "etcdserver: server stopped",
     * as the watch streams do, rather than holding the stop until the grace period cuts it.
     * Renewals in flight complete in the engine unanswered. Any thread.
     */
    synchronized void shutdown()
    {
        if (!ended)
        {
            end();
            responses.onError(EtcdErrors.serverStopped());
        }
    }

    private void end()
    {
        if (!ended)
        {
            ended = true;
            onEnd.accept(this);
        }
    }

    private synchronized void onReady()
    {
        if (owed > 0 && !ended && responses.isReady())
        {
            responses.request(owed);
            owed = 0;
        }
    }

    private synchronized void answer(final long id, final Long ttl, final Throwable error)
    {
        inFlight--;
        if (ended)
        {
            return;
        }
        final Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause != null && !(cause instanceof LeaseNotFoundException))
        {
            end();
            responses.onError(EtcdErrors.fromEngine(cause instanceof RuntimeException ? (RuntimeException)cause : new IllegalStateException(cause)));
            return;
        }
        responses.onNext(LeaseKeepAliveResponse.newBuilder().setHeader(member.header(engine.currentRevision()))
            .setID(id).setTTL(cause == null ? ttl : 0).build());
        if (responses.isReady())
        {
            responses.request(1);
        }
        else
        {
            owed++;
        }
        endIfAnswered();
    }

    private void endIfAnswered()
    {
        if (halfClosed && inFlight == 0 && !ended)
        {
            end();
            responses.onCompleted();
        }
    }
}
