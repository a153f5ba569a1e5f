package io.ringwatch.server.watch;

import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.server.rpc.MemberIdentity;
import io.ringwatch.server.admission.WriteAdmission;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * etcd's Watch service: bidirectional streams of watch requests and responses over an engine's
 * pull watchers (see {@link WatchStream} for the semantics and flow control). Starts N pump threads
 * ({@link WatchPumps}: {@code <name>-watch-pump}, {@code <name>-watch-pump-1}...), each serving the
 * streams given to it in turn as they open, and parking on its doorbell when none of them has
 * anything to send; the engine marks a watch's entry in the engine's {@code ReadyQueue} when it hands its
 * watcher something to poll ({@code PullWatcher.readyIn}; the dispatcher runs none of the server's
 * code), and gRPC a stream that was not ready and becomes ready: either marks the stream ready for
 * its pump and rings it, and a wake-up visits only the marked streams' marked watches. An idle
 * server's pumps therefore cost no CPU, however many watches are open: each wakes at least every
 * {@link #MAX_IDLE_PARK_MILLIS} ms, and such a wake-up costs what is marked. With a
 * {@link WriteAdmission}, the pumps also measure the backlog of their streams that read and drive
 * it together (a wake-up is when a pump notices writes held while nothing rang it). Thread-safe;
 * close it to end every stream and stop the threads.
 */
public final class WatchService extends WatchGrpc.WatchImplBase implements AutoCloseable
{
    /** The longest a pump parks when nothing rings it. */
    public static final long MAX_IDLE_PARK_MILLIS = 100;

    private final RingWatch engine;
    private final MemberIdentity member;
    private final int fragmentBytes;
    private final WatchPumps pumps;

    /**
     * @param engine    the engine whose watchers the streams use.
     * @param member    fills the response headers.
     * @param name      names the pump threads.
     * @param admission the write admission the pumps drive, or null for none.
     * @param fragmentBytes the size the fragments of a watch created with {@code fragment} stay
     *                  below: etcd's watch server takes --max-request-bytes plus gRPC's overhead
     *                  (512 KiB; v3rpc watch.go NewWatchServer).
     * @param pumps     how many pump threads serve the streams ({@link #defaultPumps}).
     * @throws IllegalArgumentException if {@code pumps} is below 1.
     */
    public WatchService(final RingWatch engine, final MemberIdentity member, final String name, final WriteAdmission admission,
        final int fragmentBytes, final int pumps)
    {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.member = Objects.requireNonNull(member, "member");
        this.fragmentBytes = fragmentBytes;
        this.pumps = new WatchPumps(engine, name, admission, pumps, TimeUnit.MILLISECONDS.toNanos(MAX_IDLE_PARK_MILLIS));
    }

    /**
     * The default number of watch pumps for {@code cores} processors: a quarter of them, between 1 and
     * 8. A pump is one busy thread only under fan-out; the rest of the server needs the other
     * cores (a gRPC event loop per core that frames what the pumps send, the engine's writer and
     * dispatchers), so a pump per core would take cores from the threads that feed and drain it.
     * On 16 cores that is 4, each able to carry the stream load one pump carried before; on 2
     * cores it is 1, as before.
     *
     * @param cores available processors.
     * @return the pumps to run.
     */
    public static int defaultPumps(final int cores)
    {
        return Math.max(1, Math.min(8, cores / 4));
    }

    /**
     * Opens a watch stream on the next pump in turn.
     *
     * @param responses the stream's outbound side.
     * @return the stream's inbound side.
     */
    @Override
    public StreamObserver<WatchRequest> watch(final StreamObserver<WatchResponse> responses)
    {
        final ServerCallStreamObserver<WatchResponse> out = (ServerCallStreamObserver<WatchResponse>)responses;
        final WatchPump pump = pumps.assign();
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
        return pumps.streamCount();
    }

    /**
     * @return how many pump threads serve the streams.
     */
    public int pumpCount()
    {
        return pumps.count();
    }

    /**
     * Ends every stream (their clients get UNAVAILABLE) and stops the pump threads.
     */
    @Override
    public void close()
    {
        pumps.close();
    }
}
