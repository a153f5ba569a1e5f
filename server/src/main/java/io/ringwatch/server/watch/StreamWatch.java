package io.ringwatch.server.watch;

import com.google.protobuf.CodedOutputStream;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.server.rpc.EtcdErrors;

import java.util.List;

/**
 * One watch of a {@link WatchStream}: the engine's pull watcher and the etcd watch id the client
 * knows it by. As the handler of its watcher's {@code poll} it turns what the engine hands over
 * into etcd watch responses: events into one response per poll, periodic progress into a progress
 * response (when the watch asked for progress_notify, and as etcd by {@link PeriodicProgress}: not
 * after events nor below the start revision; progress that answers a progress request is the
 * stream's, not the watch's), the end of the watch into a canceled
 * response carrying compact_revision when history was lost. A watch created with {@code fragment}
 * splits a response of two or more events that would reach {@link #MAX_RESPONSE_BYTES} into
 * fragments below it, every one but the last marked {@code fragment}, as etcd does (its clients
 * join them). Its entry in its stream's ready watches ({@link #readyEntry()}) is what the engine
 * marks when it hands the watcher something, so that the pump polls only the watches that have
 * something. Used only under its stream's lock.
 */
final class StreamWatch implements WatchListener
{
    /** etcd's default --max-request-bytes, the size its fragments stay below. */
    static final int MAX_RESPONSE_BYTES = 1_572_864;

    private final WatchStream stream;
    private final long watchId;
    private final PullWatcher watcher;
    private final ReadyQueue.Entry<StreamWatch> readyEntry;
    private final boolean progressNotify;
    private final PeriodicProgress periodic;
    private final boolean fragment;
    private WatchResponse.Builder pending;
    private boolean ended;
    private boolean awaitingProgress;
    private boolean removed;

    StreamWatch(final WatchStream stream, final long watchId, final PullWatcher watcher, final long startRevision,
        final boolean progressNotify, final boolean fragment)
    {
        this.stream = stream;
        this.readyEntry = stream.readyEntry(this);
        this.watchId = watchId;
        this.watcher = watcher;
        this.progressNotify = progressNotify;
        this.periodic = new PeriodicProgress(startRevision);
        this.fragment = fragment;
    }

    long watchId()
    {
        return watchId;
    }

    PullWatcher watcher()
    {
        return watcher;
    }

    boolean ended()
    {
        return ended;
    }

    /**
     * @return whether the watch left its stream (cancelled by the client, or the stream closed):
     *         the pump skips it if it is still among the ready ones.
     */
    boolean removed()
    {
        return removed;
    }

    void remove()
    {
        removed = true;
    }

    /**
     * @return the watch's entry in its stream's ready watches, which its watcher marks.
     */
    ReadyQueue.Entry<StreamWatch> readyEntry()
    {
        return readyEntry;
    }

    /**
     * @param revision the store's revision.
     * @return whether the watch starts after it (etcd sends no progress to such a watch).
     */
    boolean startsAfter(final long revision)
    {
        return periodic.aheadOf(revision);
    }

    boolean awaitingProgress()
    {
        return awaitingProgress;
    }

    void awaitProgress(final boolean awaiting)
    {
        awaitingProgress = awaiting;
    }

    /**
     * Hands the client what the watcher holds, at most {@code maxEvents} events in one response.
     *
     * @param maxEvents the most events to send now.
     * @return the number of events sent.
     */
    int drain(final int maxEvents)
    {
        final int events = watcher.poll(this, maxEvents);
        flush();
        return events;
    }

    @Override
    public void onEvents(final EventBatch events)
    {
        if (pending == null)
        {
            pending = WatchResponse.newBuilder().setWatchId(watchId);
        }
        for (int i = 0; i < events.size(); i++)
        {
            final WatchEvent event = events.get(i);
            pending.addEvents(EventProtos.toProto(event));
        }
    }

    @Override
    public void onProgress(final long revision)
    {
        flush();
        // Progress that answers the client's progress request is the stream's one response (watch
        // id -1), as etcd's RequestProgressAll; only periodic progress is the watch's own, and
        // etcd's rule decides whether it is sent.
        if (!stream.progressReached(this, revision) && progressNotify && periodic.tick(revision))
        {
            stream.send(WatchResponse.newBuilder().setWatchId(watchId), revision);
        }
    }

    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        flush();
        ended = true;
        final WatchResponse.Builder response = WatchResponse.newBuilder().setWatchId(watchId).setCanceled(true);
        final CancelReason reason = cancellation.reason();
        if (reason == CancelReason.COMPACTED || reason == CancelReason.REVISION_UNAVAILABLE || reason == CancelReason.LAPPED)
        {
            // etcd clients resume or relist from compact_revision; a lost history is a compaction to them.
            response.setCompactRevision(cancellation.compactRevision());
            if (reason != CancelReason.COMPACTED)
            {
                response.setCancelReason(EtcdErrors.COMPACTED_MESSAGE);
            }
            // etcd's compacted response carries no revision (mvcc's WatchResponse{CompactRevision}), so header 0.
            stream.sendExactly(response, 0);
        }
        else
        {
            response.setCancelReason("ringwatch: " + reason + ": " + cancellation.message());
            stream.send(response, 0);
        }
        stream.watchEnded(this);
    }

    private void flush()
    {
        if (pending == null)
        {
            return;
        }
        periodic.eventsSent();
        if (fragment && pending.getEventsCount() > 1 && eventBytes(pending.getEventsList()) >= MAX_RESPONSE_BYTES)
        {
            sendFragments(pending.getEventsList());
        }
        else
        {
            stream.send(pending, 0);
        }
        pending = null;
    }

    /** Greedy, as etcd's sendFragments: each fragment takes events while it stays below the limit, at least one. */
    private void sendFragments(final List<Event> events)
    {
        int from = 0;
        while (from < events.size())
        {
            int to = from + 1;
            long bytes = eventBytes(events.get(from));
            while (to < events.size() && bytes + eventBytes(events.get(to)) < MAX_RESPONSE_BYTES)
            {
                bytes += eventBytes(events.get(to++));
            }
            stream.send(WatchResponse.newBuilder().setWatchId(watchId).addAllEvents(events.subList(from, to))
                .setFragment(to < events.size()), 0);
            from = to;
        }
    }

    private static long eventBytes(final List<Event> events)
    {
        long bytes = 0;
        for (final Event event : events)
        {
            bytes += eventBytes(event);
        }
        return bytes;
    }

    private static long eventBytes(final Event event)
    {
        return CodedOutputStream.computeMessageSize(WatchResponse.EVENTS_FIELD_NUMBER, event);
    }
}
