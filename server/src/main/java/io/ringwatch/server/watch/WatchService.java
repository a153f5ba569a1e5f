package io.ringwatch.server.watch;

import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.rpc.MemberIdentity;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * etcd's Watch service: bidirectional streams of watch requests and responses over an engine's
 * pull watchers (see {@link WatchStream} for the semantics and flow control). Starts one pump
 * thread, named {@code <name>-watch-pump}, which idles with a backoff of up to
 * {@link #MAX_IDLE_PARK_MICROS} µs when no stream has anything to send: that bounds the extra
 * delivery latency of an idle server. Thread-safe; close it to end every stream and stop the thread.
 */
public final class WatchService extends WatchGrpc.WatchImplBase implements AutoCloseable
{
    /** The longest the pump parks between looks at the watchers when there is nothing to send. */
    public static final long MAX_IDLE_PARK_MICROS = 200;
    private static final Logger LOG = LoggerFactory.getLogger(WatchService.class);

    private final RingWatch engine;
    private final MemberIdentity member;
    private final WatchPump pump;
    private final AgentRunner runner;

    /**
     * @param engine the engine whose watchers the streams use.
     * @param member fills the response headers.
     * @param name   names the pump thread.
     */
    public WatchService(final RingWatch engine, final MemberIdentity member, final String name)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
        pump = new WatchPump(name + "-watch-pump");
        runner = new AgentRunner(
            new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(MAX_IDLE_PARK_MICROS)),
            error -> LOG.error("watch pump failed", error), null, pump);
        AgentRunner.startOnThread(runner);
    }

    /**
     * Opens a watch stream.
     *
     * @param responses the stream's outbound side.
     * @return the stream's inbound side.
     */
    @Override
    public StreamObserver<WatchRequest> watch(final StreamObserver<WatchResponse> responses)
    {
        final ServerCallStreamObserver<WatchResponse> out = (ServerCallStreamObserver<WatchResponse>)responses;
        final WatchStream stream = new WatchStream(engine, member, out, pump);
        out.setOnCancelHandler(stream::close);
        pump.add(stream);
        return stream;
    }

    /**
     * @return how many watch streams are open.
     */
    public int streamCount()
    {
        return pump.streamCount();
    }

    /**
     * Ends every stream (their clients get UNAVAILABLE) and stops the pump thread.
     */
    @Override
    public void close()
    {
        runner.close();
    }
}
