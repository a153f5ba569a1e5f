package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.DueWork;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.internal.secondary.IndexRouteVisitor;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.PaddedSequence;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.function.Consumer;

/**
 * One shard of the watchers: an Agrona agent that follows the watch window with its own
 * sequence (never gating the writer: if it falls a whole window behind it is lapped) and
 * routes each event through its {@link ShardRegistry} to the watchers that match it, appending
 * the event's window sequence to each one's queue. Cost per event: O(log n + matches), not
 * O(watchers). Watchers by index go through the index routes instead; only while some exist
 * does the dispatcher read events with their values.
 *
 * <p>Its jobs, one class each: this agent loop (commands, routing, progress), the registry and
 * routes ({@link ShardRegistry}), the queues and the shard's share of the pending budget
 * ({@link PendingBudget}) and waking consumers once per duty cycle ({@link BatchSignals}).
 *
 * <p>Registration, removal and progress requests arrive from any thread through a command
 * queue and are applied on the agent thread, so the routes need no lock. A watcher that starts
 * in the past is replayed from the window here, before it joins the routes: no gap, no
 * duplicate. A watcher whose queue is full (its depth or the budget), or that the window cannot
 * serve, is taken off the routes and left to read the history by its own cursor and rejoin
 * later (see {@link WatcherState}); a watch by index, which cannot read by cursor, is cancelled.
 *
 * <p>Progress is exact: the dispatcher tracks the last revision it has routed completely (a
 * duty cycle may end inside a revision, a prefix delete's thousands of events being one
 * revision) and only that revision goes into a progress marker, behind the events it covers.
 * Nor does a marker go behind an event it does not cover: a watcher already offered part of the
 * revision the shard is inside gets its marker at that revision's end (at the boundary, before
 * any event of the next one), never the revision before behind that part. The
 * pull watchers a cycle touched inside a revision it did not finish are marked again in the cycle
 * that finishes it, so an owner waiting for the revision to be whole learns it without a timer.
 * Allocates nothing per event in steady state.
 */
final class Dispatcher implements Agent, DueWork
{
    private static final int EVENTS_PER_DUTY_CYCLE = 4096;
    private static final long REPLAY_FAILED = -2;

    private final String name;
    private final WatchWindow window;
    private final NanoClock clock;
    private final long progressIntervalNanos;
    private final PaddedSequence nextSequence;
    private final Doorbell doorbell;
    /** The writer's way to {@link #doorbell}: open while a watcher is registered (see {@link #gateWriterRings()}). */
    private final GatedDoorbell windowBell;
    private final ShardRegistry registry = new ShardRegistry();
    private final PendingBudget budget;
    private final BatchSignals signals;
    private final ManyToOneConcurrentLinkedQueue<Command> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final EventRecord record = new EventRecord();
    private final EventRecord replayRecord = new EventRecord();
    private final RouteVisitor<WatcherState> offerToMatch = this::offerCurrentEvent;
    /** Watchers whose queue was full while an event was being routed: unrouted once routing is done. */
    private final ArrayList<WatcherState> overflowed = new ArrayList<>();
    /** Which routed watchers the events lost to a lap were for. */
    private final LostEventRoutes lostEvents;
    private final Consumer<WatcherState> fallBehind = this::fallBehind;
    private final IndexRouteVisitor<WatcherState> offerToIndexMatch = new IndexRouteVisitor<>()
    {
        @Override
        public void onMatch(final WatcherState watcher, final int mode)
        {
            offerIndexEvent(watcher, mode);
        }

        @Override
        public void onFunctionFailed(final WatcherState watcher, final IndexFunctionException failure)
        {
            failIndexWatcher(watcher, failure);
        }
    };
    private volatile boolean stopping;
    private long currentSequence;
    /** The revision of the last event routed... */
    private long lastRevision;
    /** ...and how many of its events were routed. */
    private int routedOfLastRevision;
    /** The last revision whose every event has been routed: what progress may report. */
    private long completeRevision;
    /**
     * Pull watchers touched in cycles that ended inside {@link #openRevision}: marked again in the
     * cycle that completes it, since an owner may hold that revision's events until it is whole.
     */
    private final ArrayList<WatcherState> touchedInOpenRevision = new ArrayList<>();
    private long openRevision;
    /** Watchers whose progress waits for this shard to route up to a revision... */
    private final ArrayList<WatcherState> deferredProgress = new ArrayList<>();
    /** ...this one, at the same index... */
    private final LongArrayList deferredProgressRevisions = new LongArrayList();
    /** ...the least of which is this one, Long.MAX_VALUE when none waits (one compare per revision routed). */
    private long earliestDeferredRevision = Long.MAX_VALUE;
    private long nextProgressNanos;
    private boolean progressPaused;

    /**
     * Creates a shard that follows the window from its next published event. Any thread; allocates
     * its registry, budget and signalling state.
     *
     * @param name                  the agent's role name.
     * @param window                the window to follow.
     * @param clock                 the clock of periodic progress.
     * @param progressIntervalNanos the interval of periodic progress.
     * @param startRevision         the engine's revision when the dispatcher starts following the
     *                              window from its next event.
     * @param queueDepth            the depth of each watcher's queue.
     * @param pendingShare          this shard's share of the engine's pending budget, in entries.
     * @param doorbell              wakes this dispatcher's thread when it parks.
     * @param delivery              the pool that runs push watchers' turns.
     * @param log                   the revision log, to find the watchers of events lost to a lap;
     *                              null in memory.
     */
    Dispatcher(
        final String name,
        final WatchWindow window,
        final NanoClock clock,
        final long progressIntervalNanos,
        final long startRevision,
        final int queueDepth,
        final long pendingShare,
        final Doorbell doorbell,
        final DeliveryPool delivery,
        final History log)
    {
        this.lostEvents = new LostEventRoutes(log, registry);
        this.doorbell = doorbell;
        this.windowBell = new GatedDoorbell(doorbell);
        this.signals = new BatchSignals(delivery);
        this.budget = new PendingBudget(queueDepth, pendingShare);
        this.name = name;
        this.window = window;
        this.clock = clock;
        this.progressIntervalNanos = progressIntervalNanos;
        this.lastRevision = startRevision;
        this.completeRevision = startRevision;
        this.nextProgressNanos = clock.nanoTime() + progressIntervalNanos;
        this.nextSequence = new PaddedSequence(window.publishedSequence() + 1);
    }

    @Override
    public String roleName()
    {
        return name;
    }

    @Override
    public int doWork()
    {
        if (stopping)
        {
            // Ends the runner's loop from inside: a runner closed from outside would first wait
            // out this thread's park, which a wakeable strategy may make long.
            throw new AgentTerminationException("dispatcher stopping", true);
        }
        int work = applyCommands();
        work += dispatchEvents();
        touchWhenRevisionCompletes();
        work += answerDeferredProgress();
        work += notifyProgressIfDue();
        signals.finishCycle();
        return work;
    }

    /**
     * What this dispatcher's idle strategy may not sleep through, since no thread rings for it: a
     * watcher whose consumer could not be woken (retried each cycle, so polled), and the next
     * periodic progress notification. Dispatcher thread, between duty cycles; no allocation.
     */
    @Override
    public long nanosUntilDue(final long nowNanos)
    {
        if (signals.hasRetries())
        {
            return 0;
        }
        // Paused means no progress watcher at the last cycle: the registration of one rings.
        return progressPaused || registry.progressWatcherCount() == 0 ? DueWork.NONE : nextProgressNanos - nowNanos;
    }

    /**
     * Drains what is left in the window, then ends every watcher of this shard with
     * {@link CancelReason#ENGINE_CLOSED}. Runs on the agent thread as it stops.
     */
    @Override
    public void onClose()
    {
        applyCommands();
        while (dispatchEvents() > 0)
        {
            signals.finishCycle();
        }
        for (int i = registry.size() - 1; i >= 0; i--)
        {
            final WatcherState watcher = registry.get(i);
            watcher.terminate(CancelReason.ENGINE_CLOSED, 0, null, "the engine closed");
        }
        applyCommands();
        signals.finishCycle();
    }

    /**
     * @return the last revision whose every event this shard has routed. Any thread: a racy read
     * of a field this dispatcher alone writes (metrics and watcher views only).
     */
    long completeRevision()
    {
        return completeRevision;
    }

    /**
     * @return the entries this shard counts as queued for its watchers. Any thread: a racy read
     * (metrics only).
     */
    long pendingEntries()
    {
        return budget.counted();
    }

    /**
     * @return watchers registered on this shard (approximate from other threads).
     */
    int watcherCount()
    {
        return registry.size();
    }

    /**
     * Asks the agent to stop: its next duty cycle ends the runner's loop, which then calls
     * {@link #onClose()}. Any thread; wakes the agent if it parks.
     */
    void stop()
    {
        stopping = true;
        doorbell.ring();
    }

    /**
     * @return the doorbell that wakes this dispatcher's thread when it parks for lack of work.
     */
    Doorbell doorbell()
    {
        return doorbell;
    }

    /**
     * @return the gate through which the writer rings this dispatcher's doorbell after it publishes
     * to the window: open only while a watcher is registered on this shard.
     */
    GatedDoorbell windowBell()
    {
        return windowBell;
    }

    /**
     * Asks for the watcher to be registered and routed from its start revision. Any thread.
     */
    void register(final WatcherState watcher)
    {
        submit(new Command(Command.REGISTER, watcher));
    }

    /**
     * Asks for an ended watcher to be taken off the routes and the registry. Any thread.
     */
    void requestRemoval(final WatcherState watcher)
    {
        submit(new Command(Command.REMOVE, watcher));
    }

    /**
     * Asks for a progress notification to the watcher. Any thread; the watcher sends at most one
     * such request at a time.
     */
    void requestProgress(final WatcherState watcher)
    {
        submit(new Command(Command.PROGRESS, watcher));
    }

    /**
     * Asks for the watcher to be taken off the routes: its consumer was lapped and catches up.
     * Any thread.
     */
    void requestUnroute(final WatcherState watcher)
    {
        submit(new Command(Command.UNROUTE, watcher));
    }

    /**
     * Asks for a caught-up watcher to be replayed from the window at {@code revision} and routed
     * again; answered with {@link WatcherState#rejoined(int)} or another catch-up request. Any
     * thread.
     */
    void requestRejoin(final WatcherState watcher, final long revision, final int ticket)
    {
        final Command command = new Command(Command.REJOIN, watcher);
        command.revision = revision;
        command.ticket = ticket;
        submit(command);
    }

    private void submit(final Command command)
    {
        commands.offer(command);
        doorbell.ring();
    }

    private int applyCommands()
    {
        int applied = 0;
        Command command;
        while ((command = commands.poll()) != null)
        {
            applied++;
            final WatcherState watcher = command.watcher;
            switch (command.kind)
            {
                case Command.REGISTER:
                    if (!watcher.isCancelled())
                    {
                        registry.register(watcher);
                        join(watcher, watcher.startRevision(), 0);
                    }
                    break;
                case Command.REMOVE:
                    registry.deregister(watcher);
                    final boolean graceful = watcher.cancellation().reason() == CancelReason.ENGINE_CLOSED;
                    if (!graceful)
                    {
                        // A cancel frees the queue now, not when (if ever) its consumer drains it.
                        budget.release(watcher);
                        watcher.dropShardFields();
                    }
                    break;
                case Command.UNROUTE:
                    unroute(watcher);
                    break;
                case Command.REJOIN:
                    if (!watcher.isCancelled() && registry.isRegistered(watcher))
                    {
                        join(watcher, command.revision, command.ticket);
                    }
                    break;
                default:
                    watcher.progressRequestTaken();
                    if (!watcher.isCancelled() && registry.isRegistered(watcher))
                    {
                        // Read after taking the request: every request it stands for was made at or
                        // below this revision, and etcd answers one only at a revision as new.
                        answerProgressAt(watcher, window.publishedRevision());
                    }
                    break;
            }
            signals.touch(watcher);
        }
        if (applied > 0)
        {
            gateWriterRings();
        }
        return applied;
    }

    /**
     * Lets the writer's rings through while a watcher is registered, and stops them once none is:
     * without one a ring after every batch only woke this thread to read events nobody wants
     * (9 to 22% of an ASYNC writer's CPU samples), and the longest park bounds how far behind the window it
     * falls. A registration rings this dispatcher itself ({@link #submit}); the gate opens here,
     * before this cycle's and every later check of the window, so an event the writer published
     * without ringing is seen by the check that follows the doorbell's arm (see
     * {@link GatedDoorbell}).
     */
    private void gateWriterRings()
    {
        if (registry.size() > 0)
        {
            windowBell.open();
        }
        else
        {
            windowBell.close();
        }
    }

    /**
     * Replays the window from {@code from} up to where this dispatcher stands, then routes the
     * watcher; or, if the window no longer holds {@code from} or the replay fills its queue,
     * leaves it to read by its own cursor.
     */
    private void join(final WatcherState watcher, final long from, final int ticket)
    {
        if (watcher.isRouted())
        {
            // Never expected: a second route would offer every event twice. A fresh catch-up from
            // what the consumer has delivered is always correct, so fall back to that.
            fallBehind(watcher);
            return;
        }
        watcher.joinAt(from);
        // Checked before the dispatcher's own position: a dispatcher that is behind would
        // otherwise route the watcher and then report the loss as its own lapping.
        if (window.firstSequenceAtOrAfter(from) == WatchWindow.REVISION_EVICTED)
        {
            fallBehind(watcher);
            return;
        }
        if (from <= lastRevision && !replay(watcher, from))
        {
            return;
        }
        registry.route(watcher);
        if (watcher.takeProgressWanted())
        {
            // Owed while it read by cursor and not reported there: now behind the replay.
            progress(watcher);
        }
        watcher.rejoined(ticket);
    }

    /** Offers the window's events from revision {@code from} up to where this dispatcher stands. */
    private boolean replay(final WatcherState watcher, final long from)
    {
        final long first = window.firstSequenceAtOrAfter(from);
        if (first == WatchWindow.REVISION_EVICTED)
        {
            fallBehind(watcher);
            return false;
        }
        final long end = nextSequence.getPlain();
        final boolean byIndex = watcher.index() != null;
        for (long sequence = first; sequence < end; sequence++)
        {
            final int status = byIndex ? window.read(sequence, replayRecord) : window.readKey(sequence, replayRecord);
            if (status != WatchWindow.READ_OK)
            {
                fallBehind(watcher);
                return false;
            }
            final long entry = byIndex ? replayEntry(watcher, sequence, from) : watcher.wants(replayRecord, from) ? sequence : -1;
            if (entry == REPLAY_FAILED)
            {
                return false;
            }
            if (entry >= 0)
            {
                if (!budget.offer(watcher, entry, signals.cycle()))
                {
                    // More to replay than its queue takes: it reads the rest by its own cursor.
                    fallBehind(watcher);
                    return false;
                }
                watcher.shardFields().offeredRevision = replayRecord.revision();
            }
        }
        return true;
    }

    /**
     * The watcher's queue or the window cannot serve it: off the routes, its queue set aside, and left
     * to read by its own cursor (a watch by index too: its consumer runs the index function).
     * Not while routing an event.
     */
    private void fallBehind(final WatcherState watcher)
    {
        if (watcher.isRouted() && watcher.isDrained())
        {
            // The routes offered it every event it matches up to completeRevision and its consumer
            // took them all: its catch-up starts after that revision, not after its last event,
            // which for an idle watcher lapped with thousands of others may be the whole log ago.
            watcher.shardFields().drainedThrough = completeRevision;
        }
        // Requested before the watcher reads as unrouted: a consumer that sees it unrouted and
        // asks to rejoin has seen, and cleared, this request with it, so the request never
        // outlives the routing it was about.
        watcher.requestCatchUp();
        unroute(watcher);
        signals.touch(watcher);
    }

    private void unroute(final WatcherState watcher)
    {
        registry.unroute(watcher);
        // Off the routes its consumer reads by cursor from what it has delivered: what is queued
        // is read again there, so the queue goes now (set aside, to be handed back emptied when it rejoins).
        budget.release(watcher);
    }

    /** The queue entry of a replayed event for a watcher by index: -1 if unwanted, REPLAY_FAILED if its function threw. */
    private long replayEntry(final WatcherState watcher, final long sequence, final long from)
    {
        if (replayRecord.revision() < from)
        {
            return -1;
        }
        final int mode;
        try
        {
            final IndexWatch index = watcher.index();
            mode = registry.indexRoutes().match(index.name, index.function, index.value, replayRecord);
        }
        catch (final IndexFunctionException e)
        {
            failIndexWatcher(watcher, e);
            return REPLAY_FAILED;
        }
        if (mode == IndexMatch.NONE || !watcher.passesFilters(typeSeen(replayRecord, mode)))
        {
            return -1;
        }
        return WatcherState.eventEntry(sequence, mode);
    }

    /**
     * A cycle that ends inside a revision hands its watchers part of it; the rest may match none of
     * them, and a pull watcher's owner that waits for {@code position()} to cover the revision
     * (the etcd server never splits one) would then learn nothing until something else woke it.
     * So the pull watchers touched in such a cycle are touched again in the cycle that completes
     * the revision (a superset: a watcher touched only for an earlier revision gets a spare mark).
     */
    private void touchWhenRevisionCompletes()
    {
        if (!touchedInOpenRevision.isEmpty() && completeRevision >= openRevision)
        {
            for (int i = 0, size = touchedInOpenRevision.size(); i < size; i++)
            {
                signals.touch(touchedInOpenRevision.get(i));
            }
            touchedInOpenRevision.clear();
        }
        if (completeRevision < lastRevision)
        {
            signals.keepTouchedPullWatchers(lastRevision, touchedInOpenRevision);
            openRevision = lastRevision;
        }
    }

    private int dispatchEvents()
    {
        final long published = window.publishedSequence();
        long sequence = nextSequence.getPlain();
        final long limit = Math.min(published, sequence + EVENTS_PER_DUTY_CYCLE - 1);
        if (sequence > limit)
        {
            return 0;
        }
        final long first = sequence;
        while (sequence <= limit)
        {
            final boolean withValues = registry.hasIndexRoutes();
            final int status = withValues ? window.read(sequence, record) : window.readKey(sequence, record);
            if (status != WatchWindow.READ_OK)
            {
                final long resumeAt = Math.max(sequence + 1, window.oldestSequence());
                lapWatchersOfLostEvents(resumeAt);
                sequence = resumeAt;
                continue;
            }
            currentSequence = sequence;
            final long revision = record.revision();
            if (revision != lastRevision)
            {
                // An event of a later revision: every event of the one before has been routed.
                completeRevision = lastRevision;
                if (completeRevision >= earliestDeferredRevision)
                {
                    // At the boundary, before any event of the next revision is offered: a marker
                    // queued now follows every event it covers and precedes every one it does not.
                    answerDeferredProgress();
                }
                lastRevision = revision;
                routedOfLastRevision = 0;
            }
            registry.routeEvent(record, offerToMatch, offerToIndexMatch);
            routedOfLastRevision++;
            unrouteOverflowed();
            sequence++;
        }
        if (sequence > published)
        {
            // The writer publishes whole revisions: at the published end the last one is complete.
            completeRevision = lastRevision;
        }
        nextSequence.set(sequence);
        return (int)(sequence - first);
    }

    private void offerCurrentEvent(final WatcherState watcher)
    {
        if (watcher.isCancelled() || record.revision() < watcher.routedFrom() || !watcher.passesFilters(record.type()))
        {
            return;
        }
        if (budget.offer(watcher, currentSequence, signals.cycle()))
        {
            watcher.shardFields().offeredRevision = record.revision();
            signals.touch(watcher);
        }
        else
        {
            // The routes are being iterated: take it off them once this event is routed.
            overflowed.add(watcher);
        }
    }

    private void unrouteOverflowed()
    {
        for (int i = 0, size = overflowed.size(); i < size; i++)
        {
            fallBehind(overflowed.get(i));
        }
        overflowed.clear();
    }

    private void offerIndexEvent(final WatcherState watcher, final int mode)
    {
        if (watcher.isCancelled() || record.revision() < watcher.routedFrom() || !watcher.passesFilters(typeSeen(record, mode)))
        {
            return;
        }
        if (budget.offer(watcher, WatcherState.eventEntry(currentSequence, mode), signals.cycle()))
        {
            watcher.shardFields().offeredRevision = record.revision();
            signals.touch(watcher);
        }
        else
        {
            overflowed.add(watcher);
        }
    }

    private static EventType typeSeen(final EventRecord event, final int mode)
    {
        if (mode == IndexMatch.AS_DELETE)
        {
            return EventType.DELETE;
        }
        return mode == IndexMatch.AS_ADD ? EventType.PUT : event.type();
    }

    private void failIndexWatcher(final WatcherState watcher, final IndexFunctionException failure)
    {
        watcher.terminate(CancelReason.INDEX_FUNCTION_FAILED, 0, failure, failure.getMessage());
    }

    private int notifyProgressIfDue()
    {
        // No clock read per duty cycle while no watcher asked for progress (a quarter of an
        // otherwise idle dispatcher's time at a million revisions a second); the interval starts
        // again with the first one.
        if (registry.progressWatcherCount() == 0)
        {
            progressPaused = true;
            return 0;
        }
        final long now = clock.nanoTime();
        if (progressPaused)
        {
            progressPaused = false;
            nextProgressNanos = now + progressIntervalNanos;
            return 0;
        }
        if (now - nextProgressNanos < 0)
        {
            return 0;
        }
        nextProgressNanos = now + progressIntervalNanos;
        for (int i = 0, size = registry.progressWatcherCount(); i < size; i++)
        {
            progress(registry.progressWatcher(i));
        }
        return 1;
    }

    /**
     * Progress to one watcher: a marker of the last complete revision behind its queued events,
     * unless one of that same revision is queued already (they collapse: a stale one does not
     * stand for a newer revision); for a watcher reading by cursor, a flag its consumer honours at
     * the next revision boundary it reaches. A watcher offered part of the revision this shard is
     * inside waits for that revision's end: a marker of the revision before would follow an event
     * it does not cover, and a client taking it as a bookmark would go back behind that event.
     */
    private void progress(final WatcherState watcher)
    {
        if (watcher.isCancelled())
        {
            return;
        }
        if (!watcher.isRouted())
        {
            watcher.wantProgress();
            signals.touch(watcher);
            return;
        }
        final ShardFields fields = watcher.shardFields();
        if (fields.offeredRevision > completeRevision)
        {
            if (fields.progressWaitsFor != fields.offeredRevision)
            {
                fields.progressWaitsFor = fields.offeredRevision;
                defer(watcher, fields.offeredRevision);
            }
            return;
        }
        final PendingQueue queue = fields.pending;
        if (queue != null && fields.markerAt >= 0 && queue.removedCount() <= fields.markerAt &&
            fields.markerRevision == completeRevision)
        {
            return;
        }
        if (budget.offer(watcher, WatcherState.progressMarker(completeRevision), signals.cycle()))
        {
            fields.markerAt = fields.pending.offeredCount() - 1;
            fields.markerRevision = completeRevision;
            signals.touch(watcher);
        }
        else
        {
            watcher.wantProgress();
            fallBehind(watcher);
        }
    }

    /**
     * A requested progress is answered at {@code revision} or later: now if this shard has routed
     * that far, else once it has ({@link #answerDeferredProgress()}).
     */
    private void answerProgressAt(final WatcherState watcher, final long revision)
    {
        if (completeRevision >= revision)
        {
            progress(watcher);
        }
        else
        {
            defer(watcher, revision);
        }
    }

    /** Progress to the watcher once this shard has routed {@code revision} completely. */
    private void defer(final WatcherState watcher, final long revision)
    {
        deferredProgress.add(watcher);
        deferredProgressRevisions.addLong(revision);
        earliestDeferredRevision = Math.min(earliestDeferredRevision, revision);
    }

    /**
     * Answers the deferred progress whose revision this shard has now routed completely: at the end
     * of a cycle, and at a revision boundary inside one. Progress it defers again (a watcher offered
     * part of the revision after) waits for a later revision, so one pass answers all that is due.
     */
    private int answerDeferredProgress()
    {
        if (completeRevision < earliestDeferredRevision)
        {
            return 0;
        }
        int answered = 0;
        for (int i = deferredProgress.size() - 1; i >= 0; i--)
        {
            if (deferredProgressRevisions.getLong(i) <= completeRevision)
            {
                final WatcherState watcher = deferredProgress.get(i);
                final int last = deferredProgress.size() - 1;
                deferredProgress.set(i, deferredProgress.get(last));
                deferredProgress.remove(last);
                deferredProgressRevisions.fastUnorderedRemove(i);
                if (!watcher.isCancelled() && registry.isRegistered(watcher))
                {
                    progress(watcher);
                }
                answered++;
            }
        }
        // Over what is left, including what progress() deferred again in this pass.
        long earliest = Long.MAX_VALUE;
        for (int i = 0, size = deferredProgressRevisions.size(); i < size; i++)
        {
            earliest = Math.min(earliest, deferredProgressRevisions.getLong(i));
        }
        earliestDeferredRevision = earliest;
        return answered;
    }

    /**
     * The window overwrote the events before {@code resumeAt} that this shard had not routed: the
     * watchers they were for read them by cursor. They lie after the events routed of the last
     * revision routed, up to that of the event at {@code resumeAt} (included: a superset, and a
     * watcher sent to catch up needlessly only pays a catch-up); the log says which watchers they
     * route to. Without a log, or when it does not hold them yet, every routed watcher falls behind.
     */
    private void lapWatchersOfLostEvents(final long resumeAt)
    {
        if (registry.size() == 0)
        {
            // Nobody to lap: a dispatcher without watchers, which the writer does not wake, may
            // be lapped while it parks, and need not read the log for it.
            return;
        }
        final long to = window.readKey(resumeAt, record) == WatchWindow.READ_OK ? record.revision() : window.publishedRevision();
        if (!lostEvents.route(Math.max(1, lastRevision), routedOfLastRevision, to, fallBehind))
        {
            lapEveryWatcher();
        }
    }

    private void lapEveryWatcher()
    {
        for (int i = 0, size = registry.size(); i < size; i++)
        {
            final WatcherState watcher = registry.get(i);
            if (watcher.isRouted())
            {
                fallBehind(watcher);
            }
        }
    }

    /** A request from another thread, applied on the agent thread. */
    private static final class Command
    {
        static final int REGISTER = 0;
        static final int REMOVE = 1;
        static final int PROGRESS = 2;
        static final int UNROUTE = 3;
        static final int REJOIN = 4;

        final int kind;
        final WatcherState watcher;
        long revision;
        int ticket;

        Command(final int kind, final WatcherState watcher)
        {
            this.kind = kind;
            this.watcher = watcher;
        }
    }
}
