package io.ringwatch.server.watch;

import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.server.admission.WriteAdmission;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * etcd's Watch service: bidirectional streams of watch requests and responses over an engine's
 * pull watchers (see {@link WatchStream} for the semantics and flow control). Starts one pump
 * thread, named {@code <name>-watch-pump}, which parks on a doorbell when no stream has anything
 * to send; the engine marks a watch's entry in the engine's {@code ReadyQueue} when it hands its
 * watcher something to poll ({@code PullWatcher.readyIn}; the dispatcher runs none of the server's
 * code), and gRPC a stream that was not ready and becomes ready: either marks the stream ready for
 * the pump and rings it, and a wake-up visits only the marked streams' marked watches. An idle
 * server's pump therefore costs no CPU, however many watches are open: it wakes at least every
 * {@link #MAX_IDLE_PARK_MILLIS} ms, and such a wake-up costs what is marked. With a
 * {@link WriteAdmission}, the pump also measures the backlog of the streams that read and drives it
 * (a wake-up is when it notices writes held while nothing rang it). Thread-safe; close it to end
 * every stream and stop the thread.
 */
public final class WatchService extends WatchGrpc.WatchImplBase implements AutoCloseable
{
    /** The longest the pump parks when nothing rings it. */
    public static final long MAX_IDLE_PARK_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(WatchService.class);

    private final RingWatch engine;
    private final MemberIdentity member;
    private final int fragmentBytes;
    private final WatchPump pump;
    private final WakeableIdleStrategy idle;
    private final AgentRunner runner;

    /**
     * @param engine    the engine whose watchers the streams use.
     * @param member    fills the response headers.
     * @param name      names the pump thread.
     * @param admission the write admission the pump drives, or null for none.
     * @param fragmentBytes the size the fragments of a watch created with {@code fragment} stay
     *                  below: etcd's watch server takes --max-request-bytes plus gRPC's overhead
     *                  (512 KiB; v3rpc watch.go NewWatchServer).
     */
    public WatchService(final RingWatch engine, final MemberIdentity member, final String name, final WriteAdmission admission,
        final int fragmentBytes)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
        this.fragmentBytes = fragmentBytes;
        idle = new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_SPINS, 0, TimeUnit.MILLISECONDS.toNanos(MAX_IDLE_PARK_MILLIS));
        pump = new WatchPump(name + "-watch-pump", engine, admission, idle.doorbell());
        runner = new AgentRunner(idle, error -> LOG.error("watch pump failed", error), null, pump);
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
        final WatchStream stream = new WatchStream(engine, member, out, pump, fragmentBytes);
        out.setOnCancelHandler(stream::close);
        out.setOnReadyHandler(() -> pump.transportReady(stream));
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
