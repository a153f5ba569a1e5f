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
 * into etcd watch responses: events into responses of whole revisions, periodic progress into a
 * progress response (when the watch asked for progress_notify, and as etcd by
 * {@link PeriodicProgress}: not after events nor below the start revision, nor below an event
 * sent; progress that answers a
 * progress request is the stream's, not the watch's), the end of the watch into a canceled
 * response carrying compact_revision when history was lost.
 *
 * <p>Batching keeps etcd 3.5's rule (mvcc watchable_store): a revision's events are never split
 * over responses, however many there are (a DeleteRange of a million keys is one response). etcd
 * sends a watcher in step one revision per response and a catching-up one up to 1,000 revisions
 * (watchBatchMaxRevs) per response; here a response ends at the first revision boundary once it
 * holds {@link #MAX_EVENTS_PER_RESPONSE} events, so it holds whole revisions, never more than
 * etcd's 1,000, and a stream that stops reading holds one such response past gRPC's threshold.
 * Events of a revision the watcher may not have been handed whole yet (its
 * {@link PullWatcher#position()} is below it) are held until it has: the dispatcher marks the watch
 * when it hands over the rest, or in the cycle that completes the revision if the rest matches
 * nothing of the watch.
 * A watch created with {@code fragment} splits a response of two or more events that is not below
 * etcd's watch limit, --max-request-bytes plus gRPC's overhead of 512 KiB (2 MiB by default: v3rpc
 * watch.go NewWatchServer), into fragments below it, every one but the last marked
 * {@code fragment}, exactly as etcd's sendFragments (sizes counted with the header; its clients
 * join them). Without {@code fragment} a response goes out whole whatever its size, as etcd's (its
 * gRPC server sends up to 2 GiB; a client's own receive limit may refuse it). Its entry in its
 * stream's ready watches ({@link #readyEntry()}) is what the engine marks when it hands the watcher
 * something, so that the pump polls only the watches that have something. Used only under its
 * stream's lock; allocates the responses, and each event's message unless its pump built it for
 * another watch lately ({@link EventProtoCache}).
 */
final class StreamWatch implements WatchListener
{
    /**
     * A response ends at the first revision boundary once it holds this many events: bounds what
     * one response adds (but for a larger revision) and keeps streams taking turns.
     */
    static final int MAX_EVENTS_PER_RESPONSE = 128;

    private final WatchStream stream;
    private final long watchId;
    private final PullWatcher watcher;
    private final ReadyQueue.Entry<StreamWatch> readyEntry;
    /** Its pump's messages: an event many watches of the pump get is built once. */
    private final EventProtoCache protos;
    private final boolean progressNotify;
    private final PeriodicProgress periodic;
    private final boolean fragment;
    private final int fragmentBytes;
    /** Events polled and not yet sent, whole revisions but perhaps the last, oldest first. */
    private WatchResponse.Builder pending;
    /** The revision of the last event in {@link #pending}. */
    private long lastRevision;
    /** Where the events of {@link #lastRevision} start in {@link #pending}. */
    private int lastRevisionStart;
    /**
     * Whether {@link #pending} holds events etcd would send from syncWatchers (an unsynced watcher):
     * polled while the watcher was not in step, or at or before the revision current at creation.
     */
    private boolean pendingCaughtUp;
    /** The store's revision when the watch was created: etcd syncs the events up to it as unsynced. */
    private final long createdAt;
    /** Responses of events sent since the current {@link #drain} began. */
    private int responsesSent;
    private boolean ended;
    /** The newest progress round's revision this watch was asked to reach; 0 before any. */
    private long progressAsked;
    /** The highest revision the watch reached progress at (everything up to it handed over). */
    private long progressSeen;
    /** The revision of the last event sent (whole revisions are sent, in order); 0 before any. */
    private long lastSentRevision;
    private boolean removed;

    StreamWatch(final WatchStream stream, final long watchId, final PullWatcher watcher, final long startRevision,
        final long createdAt, final boolean progressNotify, final boolean fragment, final int fragmentBytes)
    {
        this.createdAt = createdAt;
        this.stream = stream;
        this.readyEntry = stream.readyEntry(this);
        this.protos = stream.protos();
        this.watchId = watchId;
        this.watcher = watcher;
        this.progressNotify = progressNotify;
        this.periodic = new PeriodicProgress(startRevision);
        this.fragment = fragment;
        this.fragmentBytes = fragmentBytes;
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

    /**
     * @return whether a progress round asked this watch to reach a revision it has not reached.
     */
    boolean awaitingProgress()
    {
        return progressAsked > progressSeen;
    }

    /**
     * @return the highest revision this watch reached progress at.
     */
    long progressSeen()
    {
        return progressSeen;
    }

    /**
     * @return a revision up to which the client has every event of this watch: its progress, or the
     *         last revision it sent, whichever is later.
     */
    long completeThrough()
    {
        return Math.max(progressSeen, lastSentRevision);
    }

    /**
     * Asks the engine for progress if the watch has not reached {@code revision} yet; the engine
     * collapses requests made while one is pending, so {@link #progressArrived} asks again for a
     * later round.
     *
     * @param revision a progress round's revision.
     */
    void askProgress(final long revision)
    {
        if (revision > progressSeen && revision > progressAsked)
        {
            progressAsked = revision;
            watcher.requestProgress();
        }
    }

    /**
     * Counts this watch as past every round up to {@code revision}, which it was never asked for: a
     * new watch, which etcd's answers to the rounds before it did not wait for.
     *
     * @param revision the newest round's revision.
     */
    void skipProgressThrough(final long revision)
    {
        progressSeen = Math.max(progressSeen, revision);
    }

    /**
     * Records progress at {@code revision}, and asks again when a round is still beyond it.
     *
     * @param revision the progress revision.
     * @return whether the watch had been asked for progress (then it is the stream's, not the watch's own).
     */
    boolean progressArrived(final long revision)
    {
        final boolean asked = awaitingProgress();
        progressSeen = Math.max(progressSeen, revision);
        if (asked && awaitingProgress())
        {
            watcher.requestProgress();
        }
        return asked;
    }

    /**
     * Hands the client what the watcher holds: polls until one response of events went out (so
     * that streams take turns) or the watcher has nothing more, then sends the revisions the
     * watcher has been handed whole and holds the last one if it may have more events.
     *
     * @return the number of events polled (0: the watcher had nothing new).
     */
    int drain()
    {
        responsesSent = 0;
        int polled = 0;
        while (!ended)
        {
            final int events = watcher.poll(this, nextPollSize());
            polled += events;
            if (events > 0)
            {
                if (responsesSent > 0)
                {
                    break;
                }
                continue;
            }
            // Read after a poll found nothing, then poll once more: an event of a revision the
            // position counts as complete was queued before it was read, so this poll takes it.
            final long complete = watcher.position();
            final int late = watcher.poll(this, nextPollSize());
            polled += late;
            if (late == 0)
            {
                flushThrough(complete);
                break;
            }
            if (responsesSent > 0)
            {
                break;
            }
        }
        return polled;
    }

    /**
     * Polls no further than a response takes; once one is full, one event at a time tells whether
     * its last revision goes on (a revision past a response's worth of events, in full steps), so a
     * response sent holds back at most one event of the next revision.
     */
    private int nextPollSize()
    {
        final int count = pending == null ? 0 : pending.getEventsCount();
        if (count < MAX_EVENTS_PER_RESPONSE)
        {
            return MAX_EVENTS_PER_RESPONSE - count;
        }
        return count - lastRevisionStart >= MAX_EVENTS_PER_RESPONSE ? MAX_EVENTS_PER_RESPONSE : 1;
    }

    @Override
    public void onEvents(final EventBatch events)
    {
        // Asked inside the poll: where these events came from, the routes or the watcher's cursor.
        final boolean inStep = watcher.inStep();
        for (int i = 0; i < events.size(); i++)
        {
            final WatchEvent event = events.get(i);
            final long revision = event.modRevision();
            if (pending == null)
            {
                pending = WatchResponse.newBuilder().setWatchId(watchId);
            }
            if (revision != lastRevision || pending.getEventsCount() == 0)
            {
                if (pending.getEventsCount() >= MAX_EVENTS_PER_RESPONSE)
                {
                    // A later revision arrived: every one pending is whole.
                    send(pending, pendingCaughtUp);
                    pending = WatchResponse.newBuilder().setWatchId(watchId);
                    pendingCaughtUp = false;
                }
                lastRevision = revision;
                lastRevisionStart = pending.getEventsCount();
            }
            pendingCaughtUp |= !inStep || revision <= createdAt;
            pending.addEvents(protos.toProto(event));
        }
    }

    @Override
    public void onProgress(final long revision)
    {
        // Every event up to the progress revision has been handed over.
        flushThrough(revision);
        // Progress that answers the client's progress request is the stream's one response (watch
        // id -1), as etcd's RequestProgressAll; only periodic progress is the watch's own, and
        // etcd's rule decides whether it is sent. Never below an event this watch sent (the engine
        // hands none such; kept here too): client-go records a progress notification's revision
        // as its bookmark, and one behind an event would make its next watch replay that event.
        if (!stream.progressReached(this, revision) && progressNotify && periodic.tick(revision) && revision >= lastSentRevision)
        {
            stream.send(WatchResponse.newBuilder().setWatchId(watchId), revision);
        }
    }

    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        // Nothing follows the end: what was handed over goes out as it is.
        flushThrough(Long.MAX_VALUE);
        ended = true;
        final WatchResponse.Builder response = WatchResponse.newBuilder().setWatchId(watchId).setCanceled(true);
        final CancelReason reason = cancellation.reason();
        if (reason == CancelReason.COMPACTED || reason == CancelReason.REVISION_UNAVAILABLE || reason == CancelReason.LAPPED
            || reason == CancelReason.HISTORY_LOST)
        {
            // etcd clients resume or relist from compact_revision; a lost history is a compaction to them.
            // A hole in the log (HISTORY_LOST) is data loss, not compaction, so its reason says so, but
            // its compact_revision (the first revision served after the hole) still makes clients relist.
            response.setCompactRevision(cancellation.compactRevision());
            if (reason == CancelReason.HISTORY_LOST)
            {
                response.setCancelReason("ringwatch: " + reason + ": " + cancellation.message());
            }
            else if (reason != CancelReason.COMPACTED)
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

    /**
     * Sends the pending revisions up to {@code complete}; the last pending revision, if later, stays.
     *
     * @param complete a revision the watcher has been handed every event up to.
     */
    private void flushThrough(final long complete)
    {
        if (pending == null || pending.getEventsCount() == 0)
        {
            return;
        }
        if (lastRevision <= complete)
        {
            send(pending, pendingCaughtUp);
            pending = null;
            pendingCaughtUp = false;
        }
        else if (lastRevisionStart > 0)
        {
            final List<Event> events = pending.getEventsList();
            final WatchResponse.Builder whole = WatchResponse.newBuilder().setWatchId(watchId)
                .addAllEvents(events.subList(0, lastRevisionStart));
            pending = WatchResponse.newBuilder().setWatchId(watchId).addAllEvents(events.subList(lastRevisionStart, events.size()));
            lastRevisionStart = 0;
            // The revision held back keeps the mark too: it may have been polled with the rest.
            send(whole, pendingCaughtUp);
        }
    }

    /**
     * One response of events, in fragments if the watch asked for them and it is too large. Its
     * header revision is etcd 3.5's (mvcc watchable_store.go): a synced watcher's response carries
     * its events' revision (notify's {@code rev}; a retried victim's {@code minRev - 1}, the last
     * revision it was handed), an unsynced one's the store's revision (syncWatchers' {@code curRev}).
     *
     * @param caughtUp whether the events are what etcd would send an unsynced watcher.
     */
    private void send(final WatchResponse.Builder response, final boolean caughtUp)
    {
        periodic.eventsSent();
        responsesSent++;
        final long last = response.getEvents(response.getEventsCount() - 1).getKv().getModRevision();
        lastSentRevision = last;
        stream.eventsSent(last);
        final long revision = caughtUp ? stream.currentRevision() : last;
        response.setHeader(stream.header(revision));
        // etcd's sendFragments: whole when below the limit (header included) or of one event.
        if (fragment && response.getEventsCount() > 1 && response.build().getSerializedSize() >= fragmentBytes)
        {
            sendFragments(response, revision);
        }
        else
        {
            stream.sendExactly(response, revision);
        }
    }

    /**
     * Greedy, as etcd's sendFragments: each fragment takes events while its size, header and
     * fragment flag included, stays below the limit, and at least one.
     */
    private void sendFragments(final WatchResponse.Builder response, final long revision)
    {
        final List<Event> events = response.getEventsList();
        final long base = response.clone().clearEvents().setFragment(true).build().getSerializedSize();
        int from = 0;
        while (from < events.size())
        {
            int to = from + 1;
            long bytes = base + eventBytes(events.get(from));
            while (to < events.size() && bytes + eventBytes(events.get(to)) < fragmentBytes)
            {
                bytes += eventBytes(events.get(to++));
            }
            stream.sendExactly(WatchResponse.newBuilder().setWatchId(watchId).addAllEvents(events.subList(from, to))
                .setFragment(to < events.size()), revision);
            from = to;
        }
    }

    private static long eventBytes(final Event event)
    {
        return CodedOutputStream.computeMessageSize(WatchResponse.EVENTS_FIELD_NUMBER, event);
    }
}
