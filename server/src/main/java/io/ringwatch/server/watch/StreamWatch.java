package io.ringwatch.server.watch;

import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.server.rpc.EtcdErrors;

/**
 * One watch of a {@link WatchStream}: the engine's pull watcher and the etcd watch id the client
 * knows it by. As the handler of its watcher's {@code poll} it turns what the engine hands over
 * into etcd watch responses: events into one response per poll, progress into a progress
 * response (when the watch asked for progress_notify), the end of the watch into a canceled
 * response carrying compact_revision when history was lost. Used only under its stream's lock.
 */
final class StreamWatch implements WatchListener
{
    private final WatchStream stream;
    private final long watchId;
    private final PullWatcher watcher;
    private final boolean progressNotify;
    private WatchResponse.Builder pending;
    private boolean ended;
    private boolean awaitingProgress;

    StreamWatch(final WatchStream stream, final long watchId, final PullWatcher watcher, final boolean progressNotify)
    {
        this.stream = stream;
        this.watchId = watchId;
        this.watcher = watcher;
        this.progressNotify = progressNotify;
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
        if (progressNotify)
        {
            stream.send(WatchResponse.newBuilder().setWatchId(watchId), revision);
        }
        stream.progressReached(this, revision);
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
        }
        else
        {
            response.setCancelReason("ringwatch: " + reason + ": " + cancellation.message());
        }
        stream.send(response, 0);
        stream.watchEnded(this);
    }

    private void flush()
    {
        if (pending != null)
        {
            stream.send(pending, 0);
            pending = null;
        }
    }
}
