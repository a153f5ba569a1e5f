package io.ringwatch.engine.dispatch;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.secondary.IndexFunctionException;
import io.ringwatch.engine.secondary.IndexMatch;
import io.ringwatch.engine.secondary.IndexRouteVisitor;
import io.ringwatch.engine.secondary.IndexRoutes;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.PaddedSequence;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * One shard of the watchers: an Agrona agent that follows the watch window with its own
 * sequence (never gating the writer: if it falls a whole window behind it is lapped) and
 * routes each event through {@link WatchRoutes} to the watchers that match it, appending the
 * event's window sequence to each one's pending queue. Cost per event: O(log n + matches), not
 * O(watchers). Watchers by index go through {@link IndexRoutes} instead; only while some exist
 * does the dispatcher read events with their values, and each then costs one call of each of
 * their index functions on the old and the new value, plus the matches.
 *
 * <p>Registration, removal and progress requests arrive from any thread through a command
 * queue and are applied on the agent thread, so the routes need no lock. A watcher that starts
 * in the past is replayed from the window here, before it joins the routes: no gap, no
 * duplicate. A watcher the window cannot serve is taken off the routes and, with a history,
 * left to catch up from it and rejoin later (see {@link WatcherState}); without one it is
 * cancelled. Allocates nothing per event in steady state.
 */
final class Dispatcher implements Agent
{
    private static final int EVENTS_PER_DUTY_CYCLE = 4096;
    private static final long REPLAY_FAILED = -2;

    private final String name;
    private final WatchWindow window;
    private final NanoClock clock;
    private final long progressIntervalNanos;
    private final PaddedSequence nextSequence;
    private final Doorbell doorbell;
    private final DeliveryPool delivery;
    private final WatchRoutes<WatcherState> routes = new WatchRoutes<>();
    private final ManyToOneConcurrentLinkedQueue<Command> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ArrayList<WatcherState> registry = new ArrayList<>();
    private final ArrayList<WatcherState> progressWatchers = new ArrayList<>();
    private final ArrayList<WatcherState> touched = new ArrayList<>();
    private final ArrayDeque<WatcherState> signalRetries = new ArrayDeque<>();
    private final EventRecord record = new EventRecord();
    private final EventRecord replayRecord = new EventRecord();
    private final RouteVisitor<WatcherState> offerToMatch = this::offerCurrentEvent;
    /** Watchers that overflowed while an event was being routed: unrouted once routing is done. */
    private final ArrayList<WatcherState> overflowed = new ArrayList<>();
    private final IndexRoutes<WatcherState> indexRoutes = new IndexRoutes<>();
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
    private long batch;
    private long currentSequence;
    private long lastRevision;
    private long nextProgressNanos;

    Dispatcher(
        final String name,
        final WatchWindow window,
        final NanoClock clock,
        final long progressIntervalNanos,
        final long startRevision,
        final Doorbell doorbell,
        final DeliveryPool delivery)
    {
        this.doorbell = doorbell;
        this.delivery = delivery;
        this.name = name;
        this.window = window;
        this.clock = clock;
        this.progressIntervalNanos = progressIntervalNanos;
        this.lastRevision = startRevision;
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
        work += notifyProgressIfDue();
        finishBatch();
        return work;
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
            finishBatch();
        }
        for (int i = registry.size() - 1; i >= 0; i--)
        {
            final WatcherState watcher = registry.get(i);
            watcher.terminate(CancelReason.ENGINE_CLOSED, 0, null, "the engine closed");
        }
        applyCommands();
        finishBatch();
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

    void register(final WatcherState watcher)
    {
        submit(new Command(Command.REGISTER, watcher));
    }

    void requestRemoval(final WatcherState watcher)
    {
        submit(new Command(Command.REMOVE, watcher));
    }

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
            switch (command.kind)
            {
                case Command.REGISTER:
                    admit(command.watcher);
                    break;
                case Command.REMOVE:
                    evict(command.watcher);
                    break;
                case Command.UNROUTE:
                    unroute(command.watcher);
                    touch(command.watcher);
                    break;
                case Command.REJOIN:
                    if (!command.watcher.isCancelled() && command.watcher.registryIndex >= 0)
                    {
                        join(command.watcher, command.revision, command.ticket);
                    }
                    touch(command.watcher);
                    break;
                default:
                    if (!command.watcher.isCancelled() && command.watcher.isRouted())
                    {
                        offerProgress(command.watcher);
                    }
                    break;
            }
        }
        return applied;
    }

    private void admit(final WatcherState watcher)
    {
        if (!watcher.isCancelled())
        {
            watcher.registryIndex = registry.size();
            registry.add(watcher);
            join(watcher, watcher.startRevision(), 0);
        }
        touch(watcher);
    }

    /**
     * Replays the window from {@code from} up to where this dispatcher stands, then routes the
     * watcher; or, if the window no longer holds {@code from}, leaves it to catch up (or ends it).
     */
    private void join(final WatcherState watcher, final long from, final int ticket)
    {
        if (watcher.isRouted())
        {
            // Never expected: a second route would offer every event twice. A fresh catch-up from
            // what the consumer has delivered is always correct, so fall back to that.
            fallBehind(watcher, CancelReason.REVISION_UNAVAILABLE, "rejoin requested while routed");
            return;
        }
        watcher.routedFrom = from;
        // Checked before the dispatcher's own position: a dispatcher that is behind would
        // otherwise route the watcher and then report the loss as its own lapping.
        if (window.firstSequenceAtOrAfter(from) == WatchWindow.REVISION_EVICTED)
        {
            fallBehind(watcher, CancelReason.REVISION_UNAVAILABLE, "revision " + from + " is older than the oldest event held");
            return;
        }
        if (from <= lastRevision && !replay(watcher, from))
        {
            return;
        }
        addRoute(watcher);
        watcher.routed(true);
        if (watcher.request().progressNotify())
        {
            watcher.progressIndex = progressWatchers.size();
            progressWatchers.add(watcher);
        }
        watcher.rejoined(ticket);
    }

    /** Offers the window's events from revision {@code from} up to where this dispatcher stands. */
    private boolean replay(final WatcherState watcher, final long from)
    {
        final long first = window.firstSequenceAtOrAfter(from);
        if (first == WatchWindow.REVISION_EVICTED)
        {
            fallBehind(watcher, CancelReason.REVISION_UNAVAILABLE, "revision " + from + " is older than the oldest event held");
            return false;
        }
        final long end = nextSequence.getPlain();
        final boolean byIndex = watcher.indexFunction != null;
        for (long sequence = first; sequence < end; sequence++)
        {
            final int status = byIndex ? window.read(sequence, replayRecord) : window.readKey(sequence, replayRecord);
            if (status != WatchWindow.READ_OK)
            {
                fallBehind(watcher, CancelReason.REVISION_UNAVAILABLE, "events from revision " + from + " were overwritten during replay");
                return false;
            }
            final long entry = byIndex ? replayEntry(watcher, sequence, from) : watcher.wants(replayRecord, from) ? sequence : -1;
            if (entry == REPLAY_FAILED)
            {
                return false;
            }
            if (entry >= 0 && !watcher.pending.offer(entry))
            {
                fallBehind(watcher, CancelReason.OVERFLOWED, "more than the allowed number of events are pending for this watcher");
                return false;
            }
        }
        return true;
    }

    /**
     * The window cannot serve the watcher: off the routes, and either left to catch up from the
     * history or, without one, ended with {@code reason}. Not while routing an event.
     */
    private void fallBehind(final WatcherState watcher, final CancelReason reason, final String message)
    {
        if (watcher.canCatchUp())
        {
            // Requested before the watcher reads as unrouted: a consumer that sees it unrouted and
            // asks to rejoin has seen, and cleared, this request with it, so the request never
            // outlives the routing it was about.
            watcher.requestCatchUp();
            unroute(watcher);
        }
        else
        {
            unroute(watcher);
            watcher.terminate(reason, window.oldestRevision(), null, message);
        }
        touch(watcher);
    }

    private void unroute(final WatcherState watcher)
    {
        if (watcher.isRouted())
        {
            removeRoute(watcher);
            if (watcher.progressIndex >= 0)
            {
                swapRemove(progressWatchers, watcher.progressIndex).progressIndex = watcher.progressIndex;
                watcher.progressIndex = -1;
            }
        }
        watcher.routed(false);
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
            mode = indexRoutes.match(watcher.request().indexName(), watcher.indexFunction, watcher.indexValue, replayRecord);
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

    private void evict(final WatcherState watcher)
    {
        final int index = watcher.registryIndex;
        if (index >= 0)
        {
            unroute(watcher);
            swapRemove(registry, index).registryIndex = index;
            watcher.registryIndex = -1;
        }
        touch(watcher);
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
            final int status = indexRoutes.isEmpty() ? window.readKey(sequence, record) : window.read(sequence, record);
            if (status != WatchWindow.READ_OK)
            {
                lapEveryWatcher();
                sequence = Math.max(sequence + 1, window.oldestSequence());
                continue;
            }
            currentSequence = sequence;
            lastRevision = record.revision();
            routes.route(record.key(), 0, record.keyLength(), offerToMatch);
            if (!indexRoutes.isEmpty())
            {
                indexRoutes.route(record, offerToIndexMatch);
            }
            unrouteOverflowed();
            sequence++;
        }
        nextSequence.set(sequence);
        return (int)(sequence - first);
    }

    private void offerCurrentEvent(final WatcherState watcher)
    {
        if (watcher.isCancelled() || record.revision() < watcher.routedFrom || !watcher.passesFilters(record.type()))
        {
            return;
        }
        if (watcher.pending.offer(currentSequence))
        {
            touch(watcher);
        }
        else if (watcher.canCatchUp())
        {
            // The routes are being iterated: take it off them once this event is routed.
            overflowed.add(watcher);
        }
        else
        {
            watcher.terminate(CancelReason.OVERFLOWED, window.oldestRevision(), null,
                "more than the allowed number of events are pending for this watcher");
        }
    }

    private void unrouteOverflowed()
    {
        for (int i = 0, size = overflowed.size(); i < size; i++)
        {
            fallBehind(overflowed.get(i), CancelReason.OVERFLOWED, "more than the allowed number of events are pending");
        }
        overflowed.clear();
    }

    private void offerIndexEvent(final WatcherState watcher, final int mode)
    {
        if (watcher.isCancelled() || record.revision() < watcher.routedFrom || !watcher.passesFilters(typeSeen(record, mode)))
        {
            return;
        }
        if (watcher.pending.offer(WatcherState.eventEntry(currentSequence, mode)))
        {
            touch(watcher);
        }
        else
        {
            watcher.terminate(CancelReason.OVERFLOWED, window.oldestRevision(), null,
                "more than the allowed number of events are pending for this watcher");
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
        final long now = clock.nanoTime();
        if (now - nextProgressNanos < 0)
        {
            return 0;
        }
        nextProgressNanos = now + progressIntervalNanos;
        for (int i = 0, size = progressWatchers.size(); i < size; i++)
        {
            offerProgress(progressWatchers.get(i));
        }
        return 1;
    }

    private void offerProgress(final WatcherState watcher)
    {
        if (watcher.pending.offer(WatcherState.progressMarker(lastRevision)))
        {
            touch(watcher);
        }
    }

    private void lapEveryWatcher()
    {
        for (int i = 0, size = registry.size(); i < size; i++)
        {
            final WatcherState watcher = registry.get(i);
            if (watcher.isRouted())
            {
                fallBehind(watcher, CancelReason.LAPPED, "the dispatcher was lapped by the writer");
            }
        }
    }

    private void touch(final WatcherState watcher)
    {
        if (watcher.touchedInBatch != batch)
        {
            watcher.touchedInBatch = batch;
            touched.add(watcher);
        }
    }

    private void finishBatch()
    {
        final boolean signalling = !touched.isEmpty() || !signalRetries.isEmpty();
        for (int i = 0, size = signalRetries.size(); i < size; i++)
        {
            final WatcherState watcher = signalRetries.poll();
            if (!watcher.signal())
            {
                signalRetries.offer(watcher);
            }
        }
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            final WatcherState watcher = touched.get(i);
            if (!watcher.signal())
            {
                signalRetries.offer(watcher);
            }
        }
        touched.clear();
        batch++;
        if (signalling)
        {
            // Once per batch, not per watcher: one fence for all the schedules above, and as many
            // parked delivery threads woken as there are ready watchers.
            delivery.wake();
        }
    }

    private void addRoute(final WatcherState watcher)
    {
        if (watcher.indexFunction != null)
        {
            indexRoutes.add(watcher.request().indexName(), watcher.indexFunction, watcher.indexValue, watcher);
            return;
        }
        final KeyRange range = watcher.request().range();
        if (range.isSingleKey())
        {
            routes.addKey(range.fromKey(), watcher);
        }
        else if (range.fromKey().length == 0 && range.toKey() == null)
        {
            routes.addAll(watcher);
        }
        else
        {
            routes.addRange(range.fromKey(), range.toKey(), watcher);
        }
    }

    private void removeRoute(final WatcherState watcher)
    {
        if (watcher.indexFunction != null)
        {
            indexRoutes.remove(watcher.indexFunction, watcher.indexValue, watcher);
            return;
        }
        final KeyRange range = watcher.request().range();
        if (range.isSingleKey())
        {
            routes.removeKey(range.fromKey(), watcher);
        }
        else if (range.fromKey().length == 0 && range.toKey() == null)
        {
            routes.removeAll(watcher);
        }
        else
        {
            routes.removeRange(range.fromKey(), range.toKey(), watcher);
        }
    }

    private static WatcherState swapRemove(final ArrayList<WatcherState> list, final int index)
    {
        final int last = list.size() - 1;
        final WatcherState moved = list.get(last);
        list.set(index, moved);
        list.remove(last);
        return moved;
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
