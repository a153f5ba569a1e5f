package io.ringwatch.engine;

import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * A listener that checks, as things arrive, the order a client-go reflector relies on: a progress
 * notification is never below the revision of an event delivered before it (a bookmark behind an
 * event moves the client's resource version back), and progress never decreases. It also keeps
 * each progress with the number of events delivered before it, so a test can check exactness (a
 * progress at R comes only after every event up to R). Thread-safe; a test helper.
 */
final class ProgressOrderAudit implements WatchListener
{
    private final List<Event> events = new ArrayList<>();
    /** Whether copies of the events are kept, or only counted (a long stress run). */
    private final boolean keepEvents;
    private int eventCount;
    /** Each progress: its revision, how many events came before it. */
    private final List<long[]> progress = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private long lastEventRevision;
    private long lastProgress;
    private WatchCancellation cancellation;

    /** An audit that keeps copies of the events. */
    ProgressOrderAudit()
    {
        this(true);
    }

    /** @param keepEvents whether to keep copies of the events, or only count them. */
    ProgressOrderAudit(final boolean keepEvents)
    {
        this.keepEvents = keepEvents;
    }

    @Override
    public synchronized void onEvents(final EventBatch batch)
    {
        for (int i = 0; i < batch.size(); i++)
        {
            add(batch.get(i).toEvent());
        }
    }

    @Override
    public synchronized void onProgress(final long revision)
    {
        if (revision < lastEventRevision)
        {
            violations.add("progress " + revision + " after an event of revision " + lastEventRevision
                + " (event " + eventCount + ")");
        }
        if (revision < lastProgress)
        {
            violations.add("progress " + revision + " after progress " + lastProgress);
        }
        lastProgress = Math.max(lastProgress, revision);
        progress.add(new long[] {revision, eventCount});
        notifyAll();
    }

    @Override
    public synchronized void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
    }

    /** Takes a pull watcher's {@code next()} response in the order its marks say. */
    synchronized void take(final WatchResponse response)
    {
        response.inOrder(copies -> copies.forEach(this::add), this::onProgress);
        if (response.cancellation() != null)
        {
            onCancelled(response.cancellation());
        }
    }

    private void add(final Event event)
    {
        if (keepEvents)
        {
            events.add(event);
        }
        eventCount++;
        lastEventRevision = Math.max(lastEventRevision, event.revision());
    }

    synchronized List<String> violations()
    {
        return new ArrayList<>(violations);
    }

    synchronized List<Event> events()
    {
        return new ArrayList<>(events);
    }

    synchronized List<long[]> progress()
    {
        return new ArrayList<>(progress);
    }

    synchronized long lastProgress()
    {
        return lastProgress;
    }

    synchronized int eventCount()
    {
        return eventCount;
    }

    synchronized WatchCancellation cancellation()
    {
        return cancellation;
    }

    /**
     * Exactness: each progress R came after every event of {@code owed} with a revision up to R.
     *
     * @param owed the events the watcher is owed, in order.
     * @return what went wrong, empty when nothing did.
     */
    synchronized List<String> inexact(final List<Event> owed)
    {
        final List<String> found = new ArrayList<>();
        for (final long[] seen : progress)
        {
            final long upTo = owed.stream().filter(e -> e.revision() <= seen[0]).count();
            if (seen[1] < upTo)
            {
                found.add("progress " + seen[0] + " after " + seen[1] + " events, but " + upTo + " are at or below it");
            }
        }
        return found;
    }

    @Override
    public synchronized String toString()
    {
        final StringBuilder text = new StringBuilder(eventCount + " events, " + progress.size() + " progress, the last");
        for (final long[] seen : progress.subList(Math.max(0, progress.size() - 8), progress.size()))
        {
            text.append(' ').append(seen[0]).append('@').append(seen[1]);
        }
        return text.append(", violations ").append(violations.subList(0, Math.min(8, violations.size()))).toString();
    }
}
