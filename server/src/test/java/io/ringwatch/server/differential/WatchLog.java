package io.ringwatch.server.differential;

import com.google.protobuf.TextFormat;
import io.grpc.stub.StreamObserver;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one watch stream told its client, in a form that does not depend on how events were
 * batched into responses: per watch id, its created and cancel answers and each event, one line
 * each; the progress answers (watch id -1) in their own list. Filled on gRPC's thread, read by the
 * test's thread: every method is synchronized.
 */
final class WatchLog implements StreamObserver<WatchResponse>
{
    private final Map<Long, List<String>> perWatch = new TreeMap<>();
    private final List<String> progress = new ArrayList<>();
    private long lastArrivalNanos = System.nanoTime();
    private int responses;
    private String ended;

    @Override
    public synchronized void onNext(final WatchResponse response)
    {
        responses++;
        lastArrivalNanos = System.nanoTime();
        final long id = response.getWatchId();
        if (id == -1 && !response.getCreated() && !response.getCanceled() && response.getEventsCount() == 0)
        {
            progress.add("progress rev=" + response.getHeader().getRevision());
            return;
        }
        final List<String> lines = perWatch.computeIfAbsent(id, any -> new ArrayList<>());
        if (response.getCreated())
        {
            lines.add("created rev=" + response.getHeader().getRevision() + (response.getCanceled()
                ? " canceled reason=" + response.getCancelReason() : ""));
        }
        else if (response.getCanceled())
        {
            lines.add("canceled rev=" + response.getHeader().getRevision() + " compact_revision="
                + response.getCompactRevision() + " reason=" + response.getCancelReason());
        }
        else if (response.getEventsCount() == 0)
        {
            lines.add("progress-notify rev=" + response.getHeader().getRevision());
        }
        for (final Event event : response.getEventsList())
        {
            lines.add("event " + TextFormat.printer().emittingSingleLine(true).printToString(event));
        }
    }

    @Override
    public synchronized void onError(final Throwable t)
    {
        ended = "error " + t;
    }

    @Override
    public synchronized void onCompleted()
    {
        ended = "completed";
    }

    /**
     * @return nanoTime of the last response (or of the log's creation).
     */
    synchronized long lastArrivalNanos()
    {
        return lastArrivalNanos;
    }

    /**
     * @return how many responses came so far.
     */
    synchronized int responses()
    {
        return responses;
    }

    /**
     * @return a copy of every watch's lines, by watch id.
     */
    synchronized Map<Long, List<String>> perWatch()
    {
        final Map<Long, List<String>> copy = new TreeMap<>();
        perWatch.forEach((id, lines) -> copy.put(id, List.copyOf(lines)));
        return copy;
    }

    /**
     * @return a copy of the progress answers.
     */
    synchronized List<String> progress()
    {
        return List.copyOf(progress);
    }

    /**
     * @return how the stream ended, or null while it is open.
     */
    synchronized String ended()
    {
        return ended;
    }
}
