package io.ringwatch.server.watch;

import com.google.protobuf.ByteString;
import io.ringwatch.server.api.etcdserverpb.WatchCancelRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.ResponseHeader;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.server.admission.WatchBacklog;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.KeyRanges;
import io.ringwatch.server.rpc.MemberIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One etcd watch stream: the client's create, cancel and progress requests in, watch responses
 * out. Each watch is an engine pull watcher ({@link StreamWatch}) whose entry in the stream's
 * {@link ReadyQueue} of ready watches the engine marks when it has something to poll; that queue is
 * inside the pump's queue of ready streams, so the stream's entry there is marked too. The
 * {@link WatchPump} thread
 * drains the ready watches into the stream only while gRPC says the stream is ready (its flow-control window
 * has room), so a client that stops reading holds at most one transport buffer of responses: its
 * watchers stop being polled, fall behind and later catch up from the engine's window or log,
 * while the pump serves every other stream. Watch ids are per stream, as in etcd: chosen by the
 * client, or 0, 1, 2... when it leaves watch_id at 0.
 *
 * <p>For write admission ({@link WatchBacklog}) the stream tells when the pump last found it ready
 * (now, unless the pump found it not ready and has not found it ready since) and how far its
 * slowest watch with something to send has got. A pump pass that leaves the stream with ready
 * watches lists it among the pump's streams behind, so that admission measures only those; the
 * other watches have handed over everything they were given and count as in step.
 *
 * <p>Threads: the stream lives on one pump, given when it opens. gRPC calls {@link #onNext} on its
 * executor, that pump calls {@link #pump} and the
 * {@link WatchBacklog} methods; all take this stream's lock, which also serialises every write to
 * the outbound observer (gRPC allows one writer at a time). The engine's dispatchers only mark the
 * ready entries; gRPC's on-ready calls {@link #markReady}, which takes no lock. Allocates the
 * responses it sends.
 */
final class WatchStream implements StreamObserver<WatchRequest>, WatchBacklog
{
    private static final Logger LOG = LoggerFactory.getLogger(WatchStream.class);
    private static final ByteString SMALLEST_KEY = ByteString.copyFrom(new byte[] {0});
    private static final long INVALID_WATCH_ID = -1;
    /**
     * The most progress requests a stream has waiting: etcd's watch channel holds 128 responses
     * (mvcc chanBufLen), past which its watcher is a victim, unsynced, and requests are dropped.
     */
    static final int MAX_PENDING_PROGRESS = 128;

    private final RingWatch engine;
    private final MemberIdentity member;
    private final ServerCallStreamObserver<WatchResponse> out;
    private final WatchPump pump;
    private final int fragmentBytes;
    private final Map<Long, StreamWatch> watches = new HashMap<>();
    /**
     * Ids of watches created with a negative start revision below etcd's compaction mark: etcd
     * creates them and cancels them as compacted at once, with no engine watcher; each keeps its id
     * until the client cancels it, as an ended watch does.
     */
    private final Set<Long> compactedAtCreate = new HashSet<>();
    private final List<StreamWatch> order = new ArrayList<>();
    private final List<StreamWatch> ended = new ArrayList<>();
    /** The stream's entry in the pump's ready streams. */
    private final ReadyQueue.Entry<WatchStream> readyEntry;
    /** The watches the engine marked, until the pump takes them into {@link #pending}. */
    private final ReadyQueue<StreamWatch> readyWatches;
    /** Ready watches the pump took and has yet to poll (or that may have more), oldest first. */
    private final ArrayDeque<StreamWatch> pending = new ArrayDeque<>();
    private long nextWatchId;
    private boolean closed;
    /** The revisions of the progress requests not answered yet, oldest (and lowest) first. */
    private final ArrayDeque<Long> progressRounds = new ArrayDeque<>();
    /** The highest revision of an event sent on the stream; 0 before any. */
    private long maxEventRevisionSent;
    /** Whether {@link #send} ran since the pump last asked gRPC whether the stream is ready. */
    private boolean sent;
    /** When the pump last found the stream ready; a new stream counts as ready when opened. */
    private long lastReadyNanos;
    /** Whether the pump found the stream not ready and has not found it ready since. */
    private boolean waitingForReady;
    /** Whether the stream is among the pump's streams behind; pump thread only. */
    private boolean listedBehind;

    /**
     * @param engine          the engine whose pull watchers the watches are.
     * @param member          fills the response headers.
     * @param out             the stream's outbound side.
     * @param pump            the pump that sends what the watches hold.
     * @param fragmentBytes the size fragments stay below (--max-request-bytes plus gRPC's overhead, as etcd's).
     */
    WatchStream(final RingWatch engine, final MemberIdentity member, final ServerCallStreamObserver<WatchResponse> out,
        final WatchPump pump, final int fragmentBytes)
    {
        this.engine = engine;
        this.member = member;
        this.out = out;
        this.pump = pump;
        this.fragmentBytes = fragmentBytes;
        readyEntry = pump.readyEntry(this);
        readyWatches = ReadyQueue.inside(readyEntry);
        lastReadyNanos = System.nanoTime();
    }

    @Override
    public synchronized void onNext(final WatchRequest request)
    {
        if (closed)
        {
            return;
        }
        switch (request.getRequestUnionCase())
        {
            case CREATE_REQUEST:
                create(request.getCreateRequest());
                break;
            case CANCEL_REQUEST:
                cancel(request.getCancelRequest());
                break;
            case PROGRESS_REQUEST:
                requestProgress();
                break;
            default:
                // etcd ignores a request it does not know rather than ending the stream.
                break;
        }
    }

    @Override
    public void onError(final Throwable t)
    {
        close();
    }

    /**
     * The client half-closed: it sends no more requests, but its watches go on, as in etcd (its
     * recvLoop returns on EOF and the stream ends only with the call's context), until it cancels
     * the call ({@link #close}, from the cancel handler) or the server stops.
     */
    @Override
    public void onCompleted()
    {
    }

    /**
     * Sends what the stream's ready watches hold while the stream is ready, each ready watch in
     * turn, oldest first; a watch that handed over events goes to the back, since it may have more
     * (a drain sends at most one response of events, whole revisions past
     * {@link StreamWatch#MAX_EVENTS_PER_RESPONSE} events, and a catch-up hands over fewer). Watches that have nothing are not looked at.
     * Pump thread.
     *
     * @param nowNanos {@link System#nanoTime()} at this pass, recorded if the stream is ready.
     * @return the number of events polled (0: nothing was pending or the client is not reading).
     */
    synchronized int pump(final long nowNanos)
    {
        if (closed)
        {
            // Its watches stay marked, so that nothing adds them again.
            readyWatches.drain(entry -> { });
            pending.clear();
            return 0;
        }
        for (ReadyQueue.Entry<StreamWatch> entry = readyWatches.poll(); entry != null; entry = readyWatches.poll())
        {
            pending.addLast(entry.attachment());
        }
        if (pending.isEmpty() && !waitingForReady)
        {
            return 0;
        }
        int events = 0;
        try
        {
            // Only what this stream sends takes readiness away, so gRPC is asked again only after a
            // send, not once per watch (100 asks per wake-up were an eighth of the pump's CPU).
            boolean ready = out.isReady();
            waitingForReady = !ready;
            if (ready)
            {
                lastReadyNanos = nowNanos;
            }
            sent = false;
            for (int n = pending.size(); n > 0 && ready; n--)
            {
                final StreamWatch watch = pending.pollFirst();
                if (watch.removed())
                {
                    continue;
                }
                // Unmarked before the poll (a full fence): a hand-over the poll misses marks it again.
                watch.readyEntry().unmark();
                final int sentNow = watch.drain();
                events += sentNow;
                if (sentNow > 0 && !watch.ended() && watch.readyEntry().remark())
                {
                    pending.addLast(watch);
                }
                if (sent)
                {
                    sent = false;
                    ready = out.isReady();
                }
            }
            // Found not ready after a send: nothing brings the pump back before gRPC's on-ready, so
            // admission must see the stream as waiting from now (it may never read again).
            waitingForReady = !ready;
            removeEnded();
        }
        catch (final RuntimeException e)
        {
            // The call ended under us (the client went away between isReady and onNext): drop the stream.
            LOG.debug("watch stream ended while sending", e);
            close();
        }
        if (!listedBehind && !closed && !pending.isEmpty())
        {
            listedBehind = true;
            pump.listBehind(this);
        }
        return events;
    }

    /**
     * Whether the pump must come back to this stream: it has ready watches it has not taken, or
     * ready watches it has taken and gRPC takes responses. The pump asks after it unmarked the
     * stream, so a watch or gRPC's on-ready that comes after this answer marks the stream again.
     * Pump thread.
     *
     * @return whether the stream has something the pump can send now.
     */
    synchronized boolean wantsPump()
    {
        return !closed && (!readyWatches.isEmpty() || (!pending.isEmpty() && out.isReady()));
    }

    /**
     * @return the event messages its pump built lately, for its watches' responses; pump thread only.
     */
    EventProtoCache protos()
    {
        return pump.protos();
    }

    /**
     * Makes {@code watch}'s entry among the stream's ready watches, for its watcher to mark. Any
     * thread; allocates the entry.
     *
     * @param watch a new watch of this stream.
     * @return its entry, unmarked.
     */
    ReadyQueue.Entry<StreamWatch> readyEntry(final StreamWatch watch)
    {
        return readyWatches.entry(watch);
    }

    /**
     * Marks the stream among the pump's ready streams (and wakes the pump if that added it): gRPC
     * says it takes responses again. Any thread, after a full fence that
     * follows what the pump is to see; takes no lock, allocates nothing.
     */
    void markReady()
    {
        readyEntry.mark();
    }

    /**
     * @return when the pump last found the stream ready; now, unless it found it not ready since.
     */
    @Override
    public synchronized long lastReadyNanos()
    {
        // A stream the pump has no reason to look at has not been found wanting: it counts as ready.
        return waitingForReady ? lastReadyNanos : System.nanoTime();
    }

    /**
     * Whether the stream still has ready watches (taking the ones marked since the last pass, as a
     * pass would); if not, it leaves the pump's streams behind. Pump thread, while it measures.
     *
     * @return whether the stream stays among the streams behind.
     */
    synchronized boolean stillBehind()
    {
        if (!closed)
        {
            for (ReadyQueue.Entry<StreamWatch> entry = readyWatches.poll(); entry != null; entry = readyWatches.poll())
            {
                pending.addLast(entry.attachment());
            }
            if (!pending.isEmpty())
            {
                return true;
            }
        }
        listedBehind = false;
        return false;
    }

    /**
     * The lowest position of the watches with something to send (the ready ones); every other
     * live watch has been handed everything it was given and is in step. O(ready watches). Pump
     * thread, after {@link #stillBehind}.
     */
    @Override
    public synchronized long position()
    {
        long lowest = Long.MAX_VALUE;
        for (final StreamWatch watch : pending)
        {
            if (!watch.ended() && !watch.removed())
            {
                lowest = Math.min(lowest, watch.watcher().position());
            }
        }
        return lowest;
    }

    /**
     * Ends every watch of the stream; idempotent. Called when the client goes away (cancels the
     * call, or it fails).
     */
    synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final StreamWatch watch : order)
        {
            if (!watch.ended())
            {
                pump.watchesLive(-1);
            }
            watch.remove();
            watch.watcher().cancel();
        }
        watches.clear();
        compactedAtCreate.clear();
        order.clear();
        pump.remove(this);
    }

    /**
     * Ends the stream because the server stops: its watches end and the client gets UNAVAILABLE.
     */
    synchronized void shutdown()
    {
        if (!closed)
        {
            close();
            out.onError(EtcdErrors.serverStopped());
        }
    }

    /**
     * Sends one response, filling its header; the caller holds the lock.
     *
     * @param response the response.
     * @param revision the header revision, or 0 for the engine's current revision.
     */
    void send(final WatchResponse.Builder response, final long revision)
    {
        sendExactly(response, revision != 0 ? revision : engine.currentRevision());
    }

    /**
     * @return the engine's current revision: the store's revision in etcd's headers.
     */
    long currentRevision()
    {
        return engine.currentRevision();
    }

    /**
     * @param revision a header revision.
     * @return the member's response header carrying it.
     */
    ResponseHeader header(final long revision)
    {
        return member.header(revision);
    }

    /**
     * Sends one response whose header carries exactly {@code headerRevision}, 0 included (etcd's
     * compacted response has header revision 0); the caller holds the lock.
     *
     * @param response       the response.
     * @param headerRevision the header revision.
     */
    void sendExactly(final WatchResponse.Builder response, final long headerRevision)
    {
        out.onNext(response.setHeader(member.header(headerRevision)).build());
        sent = true;
    }

    /**
     * A watch reached progress at {@code revision}: the stream answers each progress request once
     * every watch has reached the request's revision.
     *
     * @return whether the watch had been asked for progress for a request (then this progress is
     *         the stream's answer, not a progress notification of the watch's own).
     */
    boolean progressReached(final StreamWatch watch, final long revision)
    {
        if (!watch.progressArrived(revision))
        {
            return false;
        }
        answerReachedRounds();
        return true;
    }

    /**
     * A watch ended on the engine's side; it leaves the pump's turn after the current pass, and no
     * progress request waits for it.
     */
    void watchEnded(final StreamWatch watch)
    {
        ended.add(watch);
        if (!watch.removed())
        {
            pump.watchesLive(-1);
        }
        answerReachedRounds();
    }

    /**
     * etcd's order (v3rpc recvLoop, mvcc watchStream.Watch): an empty range, then a duplicate id,
     * refuse the create; then the watch is created, and one whose start revision is below etcd's
     * compaction mark ({@link RingWatch#compactMark()}, -1 in a store never compacted) is cancelled
     * as compacted at once (mvcc chooseAll). A start of -1 in a store never compacted is no
     * compaction: etcd syncs such a watch from its current revision, as a start of 0.
     */
    private void create(final WatchCreateRequest request)
    {
        final ByteString key = request.getKey().isEmpty() ? SMALLEST_KEY : request.getKey();
        final KeyRange range = KeyRanges.of(key, request.getRangeEnd());
        if (range == null)
        {
            refuseCreate(EtcdErrors.EMPTY_WATCHER_RANGE);
            return;
        }
        long watchId = request.getWatchId();
        if (watchId == 0)
        {
            while (idInUse(nextWatchId))
            {
                nextWatchId++;
            }
            watchId = nextWatchId++;
        }
        else if (idInUse(watchId))
        {
            refuseCreate(EtcdErrors.DUPLICATE_WATCH_ID);
            return;
        }
        final long mark = engine.compactMark();
        if (request.getStartRevision() < 0 && request.getStartRevision() < mark)
        {
            createCompacted(watchId, mark);
            return;
        }
        // Read before the watcher starts: the events up to it are etcd's syncWatchers' (unsynced).
        final long createdAt = engine.currentRevision();
        final PullWatcher watcher;
        try
        {
            watcher = engine.watchPull(engineRequest(request, range));
        }
        catch (final RuntimeException e)
        {
            LOG.debug("watch refused: {}", request, e);
            refuseCreate(EtcdErrors.fromEngine(e).getStatus().getDescription());
            return;
        }
        final StreamWatch watch = new StreamWatch(this, watchId, watcher, request.getStartRevision(), createdAt,
            request.getProgressNotify(),
            request.getFragment(), fragmentBytes);
        send(WatchResponse.newBuilder().setWatchId(watchId).setCreated(true), 0);
        if (!progressRounds.isEmpty())
        {
            // etcd answered the requests before this watch without it.
            watch.skipProgressThrough(progressRounds.peekLast());
        }
        watches.put(watchId, watch);
        order.add(watch);
        pump.watchesLive(1);
        // Set once the watch is in the stream, so the mark it makes finds it there.
        watcher.readyIn(watch.readyEntry());
    }

    private boolean idInUse(final long watchId)
    {
        return watches.containsKey(watchId) || compactedAtCreate.contains(watchId);
    }

    /**
     * etcd's created response, then its compacted one: compact_revision the mark, header revision 0
     * (mvcc's WatchResponse carries none), canceled only when the mark is not 0 (v3rpc's sendLoop
     * cancels on a compact revision other than 0, so after a Compact(0) the watch just goes silent).
     */
    private void createCompacted(final long watchId, final long mark)
    {
        send(WatchResponse.newBuilder().setWatchId(watchId).setCreated(true), 0);
        compactedAtCreate.add(watchId);
        sendExactly(WatchResponse.newBuilder().setWatchId(watchId).setCompactRevision(mark).setCanceled(mark != 0), 0);
    }

    private static io.ringwatch.engine.watch.WatchRequest engineRequest(final WatchCreateRequest request, final KeyRange range)
    {
        io.ringwatch.engine.watch.WatchRequest watch = io.ringwatch.engine.watch.WatchRequest.of(range)
            .startRevision(Math.max(request.getStartRevision(), 0));
        if (request.getPrevKv())
        {
            watch = watch.withPrevKv();
        }
        if (request.getProgressNotify())
        {
            watch = watch.withProgressNotify();
        }
        for (final WatchCreateRequest.FilterType filter : request.getFiltersList())
        {
            if (filter == WatchCreateRequest.FilterType.NOPUT)
            {
                watch = watch.noPut();
            }
            else if (filter == WatchCreateRequest.FilterType.NODELETE)
            {
                watch = watch.noDelete();
            }
        }
        return watch;
    }

    private void refuseCreate(final String reason)
    {
        send(WatchResponse.newBuilder().setWatchId(INVALID_WATCH_ID).setCreated(true).setCanceled(true).setCancelReason(reason), 0);
    }

    private void cancel(final WatchCancelRequest request)
    {
        if (compactedAtCreate.remove(request.getWatchId()))
        {
            send(WatchResponse.newBuilder().setWatchId(request.getWatchId()).setCanceled(true), 0);
            return;
        }
        final StreamWatch watch = watches.remove(request.getWatchId());
        if (watch == null)
        {
            // etcd answers nothing for a watch it does not know.
            return;
        }
        order.remove(watch);
        if (!watch.ended())
        {
            pump.watchesLive(-1);
        }
        watch.remove();
        watch.watcher().cancel();
        send(WatchResponse.newBuilder().setWatchId(watch.watchId()).setCanceled(true), 0);
        answerReachedRounds();
    }

    /**
     * etcd 3.5.22's RequestProgressAll (mvcc progressIfSync): each request is answered with one
     * response, watch id -1, at the revision current when the client asked, once every watch of
     * the stream has delivered everything up to it (etcd answers at once when every watcher is
     * synced, behind the responses already queued); a burst gets one answer per request. None on a
     * stream without watches, none while a watch starts after that revision (etcd-io/etcd#20229),
     * none while the stream holds a watch ended (compacted) that its client has not cancelled:
     * etcd keeps such a watcher among the stream's, out of the synced group, until the cancel; and
     * none past {@link #MAX_PENDING_PROGRESS} waiting.
     */
    private void requestProgress()
    {
        if (!hasLiveWatch() || hasEndedWatch())
        {
            return;
        }
        final long revision = engine.currentRevision();
        if (startsAfter(revision))
        {
            // etcd drops the request: a progress below a watch's start would tell its client it
            // had seen revisions it asked to skip.
            return;
        }
        if (progressRounds.size() >= MAX_PENDING_PROGRESS)
        {
            return;
        }
        progressRounds.addLast(revision);
        for (final StreamWatch watch : order)
        {
            if (!watch.ended())
            {
                watch.askProgress(revision);
            }
        }
        answerReachedRounds();
    }

    private boolean startsAfter(final long revision)
    {
        for (final StreamWatch watch : order)
        {
            if (!watch.ended() && watch.startsAfter(revision))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether the stream holds a watch that ended (compacted, at creation or later) and
     *         that its client has not cancelled.
     */
    private boolean hasEndedWatch()
    {
        if (!compactedAtCreate.isEmpty())
        {
            return true;
        }
        for (final StreamWatch watch : watches.values())
        {
            if (watch.ended())
            {
                return true;
            }
        }
        return false;
    }

    private boolean hasLiveWatch()
    {
        for (final StreamWatch watch : order)
        {
            if (!watch.ended())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A watch sent events up to {@code revision}; the caller holds the lock.
     *
     * @param revision the last event's revision.
     */
    void eventsSent(final long revision)
    {
        maxEventRevisionSent = Math.max(maxEventRevisionSent, revision);
    }

    /**
     * Answers, oldest first, every progress request whose revision every live watch has reached.
     * The answer carries the revision every watch is complete through (at least the request's):
     * answered later than etcd answers, its client may already have events after the request's
     * revision, and a progress below an event it had would take its watches back. Where another
     * watch of the stream has already sent events past that revision, the request is dropped, as
     * etcd drops one that finds a watcher unsynced (the client asks again).
     */
    private void answerReachedRounds()
    {
        while (!progressRounds.isEmpty())
        {
            final long revision = progressRounds.peekFirst();
            long complete = Long.MAX_VALUE;
            for (final StreamWatch watch : order)
            {
                if (!watch.ended())
                {
                    if (watch.progressSeen() < revision)
                    {
                        return;
                    }
                    complete = Math.min(complete, watch.completeThrough());
                }
            }
            progressRounds.pollFirst();
            if (complete != Long.MAX_VALUE && complete >= maxEventRevisionSent)
            {
                send(WatchResponse.newBuilder().setWatchId(INVALID_WATCH_ID), complete);
            }
        }
    }

    /**
     * An ended watch leaves the pump's turn but keeps its id until the client cancels it or the
     * stream ends, as etcd's mvcc watchStream keeps a compacted watcher: the id stays a duplicate,
     * and a cancel of it is answered.
     */
    private void removeEnded()
    {
        for (final StreamWatch watch : ended)
        {
            order.remove(watch);
        }
        ended.clear();
    }
}
