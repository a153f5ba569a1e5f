package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.internal.history.TieredHistory;
import io.ringwatch.engine.internal.history.WindowHistory;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Owns the watch side of an engine: the dispatcher shards (each on its own agent thread), the
 * {@link DeliveryPool} whose threads call push listeners, and a housekeeper thread that makes
 * the pool compensate for a thread blocked in a listener, applies the slow-listener policy and
 * builds the window's next generation before it grows, filled with the events published so far
 * ({@link WatchWindow#prepareGrowth()}, {@link WatchWindow#copyAhead(int)}).
 * Creates watchers and assigns each to a shard by its id; a push watcher runs on whichever
 * delivery thread is free.
 *
 * <p>Any thread may create watchers. Creating one allocates its state and its routes; its queue
 * is allocated with its first event, and events then flow without allocation.
 */
public final class WatchHub implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(WatchHub.class);
    /** Push watchers ready at once before a dispatcher must retry a schedule. */
    private static final int READY_QUEUE_CAPACITY = 1 << 16;
    private static final long HOUSEKEEPING_MIN_PERIOD_NANOS = TimeUnit.MICROSECONDS.toNanos(250);
    /**
     * Most window events the housekeeper copies into the window's next generation a round: a few
     * milliseconds of copying at most, and only in the rounds just after the generation is built
     * (then only what was published since the last round), so the other duties keep about their
     * period; at 1 ms rounds several times the writer's own rate (about 2 M events/s), so the copy
     * keeps up with it.
     */
    private static final int GROWTH_COPY_PER_ROUND = 16_384;

    private final LongSupplier appliedRevision;
    private final LongSupplier compactRevision;
    private final Function<String, IndexFunction> indexFunctions;
    private final long slowListenerNanos;
    private final long blockedAfterNanos;
    private final Dispatcher[] dispatchers;
    private final ShardContext[] shards;
    private final AgentRunner[] runners;
    private final DeliveryPool delivery;
    private final WatchWindow window;
    private final Thread housekeeper;
    private final AtomicLong nextWatchId = new AtomicLong(1);
    private final LiveWatchers live = new LiveWatchers();
    private final long pendingBudget;
    private volatile boolean closed;

    /**
     * Starts the dispatcher, delivery and housekeeper threads.
     *
     * @param config          thread counts, batch sizes, limits and idle strategies.
     * @param window          the window the dispatchers follow.
     * @param appliedRevision the engine's current revision, to resolve "watch from now".
     * @param compactRevision the engine's compaction point.
     * @param history         the revision log, where watchers the window cannot serve catch up;
     *                        null when the engine keeps no log, and they catch up from the window
     *                        alone (cancelled only once it no longer holds their next event).
     * @param indexFunctions  resolves a secondary index's name to its function for watches by
     *                        index; throws a typed error for an unknown name.
     */
    public WatchHub(
        final RingWatchConfig config,
        final WatchWindow window,
        final LongSupplier appliedRevision,
        final LongSupplier compactRevision,
        final History history,
        final Function<String, IndexFunction> indexFunctions)
    {
        this.indexFunctions = indexFunctions;
        final History catchUpHistory = history != null ? new TieredHistory(window, history) : new WindowHistory(window);
        this.appliedRevision = appliedRevision;
        this.compactRevision = compactRevision;
        this.slowListenerNanos = config.slowListenerTimeout().toNanos();
        this.blockedAfterNanos = config.listenerBlockedAfter().toNanos();
        final NanoClock clock = SystemNanoClock.INSTANCE;
        final long startRevision = appliedRevision.getAsLong();

        delivery = new DeliveryPool(config.name() + "-delivery", config.deliveryBatchSize(), config.deliveryIdleStrategy(),
            config.deliveryThreads(), config.maxDeliveryThreads(), config.listenerBlockedAfter().toNanos(),
            config.deliveryKeepAlive().toNanos(), slowListenerNanos, READY_QUEUE_CAPACITY);
        delivery.start();

        dispatchers = new Dispatcher[config.dispatcherThreads()];
        final long pendingShare = Math.max(1, config.pendingBudget() / dispatchers.length);
        pendingBudget = pendingShare * dispatchers.length;
        runners = new AgentRunner[dispatchers.length];
        for (int i = 0; i < dispatchers.length; i++)
        {
            final IdleStrategy idle = config.dispatcherIdleStrategy().get();
            dispatchers[i] = new Dispatcher(config.name() + "-dispatcher-" + i, window, clock,
                config.progressNotifyInterval().toNanos(), startRevision, config.watcherQueueDepth(), pendingShare,
                doorbellOf(idle), delivery, history);
            if (idle instanceof WakeableIdleStrategy)
            {
                ((WakeableIdleStrategy)idle).dueWork(dispatchers[i]);
            }
            runners[i] = new AgentRunner(idle, WatchHub::reportError, null, dispatchers[i]);
            AgentRunner.startOnThread(runners[i], runnable ->
            {
                final Thread thread = new Thread(runnable);
                thread.setDaemon(true);
                return thread;
            });
        }

        final ThreadLocal<EventBatchView> pollBatches = ThreadLocal.withInitial(() -> new EventBatchView(config.deliveryBatchSize()));
        shards = new ShardContext[dispatchers.length];
        for (int i = 0; i < dispatchers.length; i++)
        {
            shards[i] = new ShardContext(dispatchers[i], window, catchUpHistory, slowListenerNanos, delivery, pollBatches,
                live, compactRevision);
        }

        this.window = window;
        window.onGrowthExpected(delivery.housekeeping()::ring);
        housekeeper = new Thread(this::keepHouse, config.name() + "-housekeeper");
        housekeeper.setDaemon(true);
        housekeeper.start();
    }

    /**
     * Creates a push watcher whose listener is called on a delivery thread.
     *
     * @param request  what to watch.
     * @param listener receives events, progress and the cancellation.
     * @return the watcher; already cancelled (with {@link CancelReason#COMPACTED}) when its start
     * revision is before the compaction point.
     * @throws InvalidRequestException if an argument is null or the watched index is unknown.
     * @throws EngineClosedException   after close.
     */
    public Watcher watch(final WatchRequest request, final WatchListener listener)
    {
        requireOpen(request);
        if (listener == null)
        {
            throw new InvalidRequestException("listener must not be null");
        }
        final IndexFunction indexFunction = resolveIndex(request);
        final long id = nextWatchId.getAndIncrement();
        final PushWatcherState watcher = new PushWatcherState(id, request, resolveStart(request), shardOf(id), indexFunction, listener);
        return admit(watcher);
    }

    /**
     * Creates a pull watcher its owner drains with poll or next.
     *
     * @param request what to watch.
     * @return the watcher; already cancelled when its start revision is compacted.
     * @throws InvalidRequestException if the request is null or the watched index is unknown.
     * @throws EngineClosedException   after close.
     */
    public PullWatcher watchPull(final WatchRequest request)
    {
        requireOpen(request);
        final IndexFunction indexFunction = resolveIndex(request);
        final long id = nextWatchId.getAndIncrement();
        final PullWatcherState watcher = new PullWatcherState(id, request, resolveStart(request), shardOf(id), indexFunction);
        return admit(watcher);
    }

    /** The shard of a watcher id: ids are spread over the dispatchers round-robin. */
    private ShardContext shardOf(final long id)
    {
        return shards[(int)(id % shards.length)];
    }

    /**
     * The doorbells the writer rings after it publishes events to the window, one per dispatcher,
     * each behind a gate its dispatcher opens only while it has a watcher. Any thread; allocates
     * the returned array.
     *
     * @return the dispatchers' gated doorbells.
     */
    public GatedDoorbell[] dispatcherDoorbells()
    {
        final GatedDoorbell[] doorbells = new GatedDoorbell[dispatchers.length];
        for (int i = 0; i < dispatchers.length; i++)
        {
            doorbells[i] = dispatchers[i].windowBell();
        }
        return doorbells;
    }

    /**
     * @return the number of live watchers registered with the dispatchers (approximate while
     * watchers come and go).
     */
    public int watcherCount()
    {
        int count = 0;
        for (final Dispatcher dispatcher : dispatchers)
        {
            count += dispatcher.watcherCount();
        }
        return count;
    }

    /**
     * @param currentRevision the engine's current revision, to measure lags against.
     * @return a view of every live watcher, ordered by id. Any thread; allocates the list and
     * the views; O(watchers).
     */
    public List<WatcherView> watchers(final long currentRevision)
    {
        return live.views(currentRevision);
    }

    /**
     * @param currentRevision the engine's current revision, to measure lags against.
     * @return the largest lag of a live watcher, as its view would say. Any thread; no allocation
     * per watcher; O(watchers).
     */
    public long maxLag(final long currentRevision)
    {
        return live.maxLag(currentRevision);
    }

    /**
     * @param state a watcher state.
     * @return live watchers in it now. Any thread; no allocation; O(watchers).
     */
    public int watcherCount(final WatcherView.State state)
    {
        return live.count(state);
    }

    /**
     * @param reason a cancel reason.
     * @return watchers that ended for it since the engine started. Any thread.
     */
    public long cancelledCount(final CancelReason reason)
    {
        return live.cancelledCount(reason);
    }

    /**
     * @return entries queued for watchers over all dispatchers (an upper bound between their
     * recounts). Any thread, racy.
     */
    public long pendingEntries()
    {
        long total = 0;
        for (final Dispatcher dispatcher : dispatchers)
        {
            total += dispatcher.pendingEntries();
        }
        return total;
    }

    /**
     * @return the most entries all watcher queues may hold together.
     */
    public long pendingBudget()
    {
        return pendingBudget;
    }

    /**
     * @return delivery threads alive now, blocked ones included. Any thread.
     */
    public int deliveryThreads()
    {
        return delivery.threadCount();
    }

    /**
     * @return delivery threads started in place of threads blocked in listeners. Any thread.
     */
    public long deliveryThreadsReplaced()
    {
        return delivery.replacedCount();
    }

    /**
     * @return true on one of the dispatcher threads, which run index functions (routing watches
     * by index) and which {@link #close()} joins: a close from there must finish elsewhere. Any
     * thread; no allocation.
     */
    public boolean onDispatcherThread()
    {
        final Thread self = Thread.currentThread();
        for (final AgentRunner runner : runners)
        {
            if (runner.thread() == self)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return true on a thread this hub runs: a dispatcher or a delivery thread, which its
     * {@link #close()} waits for, or the housekeeper. User code runs on the delivery threads
     * (listeners), so a close may be called there. Any thread; no allocation.
     */
    public boolean onOwnThread()
    {
        final Thread self = Thread.currentThread();
        return self == housekeeper || onDispatcherThread() || delivery.isPoolThread();
    }

    /**
     * Routes what the window still holds, ends every watcher with
     * {@link CancelReason#ENGINE_CLOSED}, lets push listeners hear it, and stops the threads.
     * Call after the writer has stopped. Waits at most the slow-listener timeout for listeners
     * to return, then logs one warning naming each watcher whose listener it gave up on and how
     * much it held undelivered. Called from a listener, it does not wait for the calling thread: it returns
     * at once, and that thread delivers what is left (its own watcher's ENGINE_CLOSED among it)
     * when the listener returns. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int i = 0; i < runners.length; i++)
        {
            dispatchers[i].stop();
            runners[i].close();
        }
        housekeeper.interrupt();
        final String abandoned = delivery.close(slowListenerNanos);
        if (abandoned != null)
        {
            LOG.warn("{}: close stopped waiting for listeners after {} ms (the slow-listener timeout): {}",
                delivery.name(), slowListenerNanos / 1_000_000, abandoned);
        }
    }

    private <W extends WatcherState> W admit(final W watcher)
    {
        live.added(watcher);
        final long compacted = compactRevision.getAsLong();
        if (watcher.startRevision() < compacted)
        {
            watcher.terminate(CancelReason.COMPACTED, compacted, null,
                "revision " + watcher.startRevision() + " has been compacted; compact revision is " + compacted);
        }
        watcher.shard.dispatcher.register(watcher);
        if (closed)
        {
            // Close may have drained the shard before this registration arrived.
            watcher.terminate(CancelReason.ENGINE_CLOSED, 0, null, "the engine closed");
            throw new EngineClosedException("the engine is closed: watch refused");
        }
        return watcher;
    }

    private IndexFunction resolveIndex(final WatchRequest request)
    {
        return request.isIndexWatch() ? indexFunctions.apply(request.indexName()) : null;
    }

    private long resolveStart(final WatchRequest request)
    {
        return request.startRevision() == 0 ? appliedRevision.getAsLong() + 1 : request.startRevision();
    }

    private void requireOpen(final WatchRequest request)
    {
        if (request == null)
        {
            throw new InvalidRequestException("watch request must not be null");
        }
        if (closed)
        {
            throw new EngineClosedException("the engine is closed: watch refused");
        }
    }

    /**
     * The doorbell that wakes a thread idling with {@code idle}: its own for a
     * {@link WakeableIdleStrategy}; for any other strategy one that is never armed, so ringing
     * it costs a fence and a read.
     */
    private static Doorbell doorbellOf(final IdleStrategy idle)
    {
        return idle instanceof WakeableIdleStrategy ? ((WakeableIdleStrategy)idle).doorbell() : new Doorbell();
    }

    private static void reportError(final Throwable error)
    {
        // Only a bug reaches here: the agent runner keeps the dispatcher going after it.
        LOG.error("{}: unexpected dispatcher error; the dispatcher carries on", Thread.currentThread().getName(), error);
    }

    private void keepHouse()
    {
        // Often enough to compensate for a blocked delivery thread within 1.5 times the blocked
        // threshold, and to report a slow listener within a quarter of its timeout.
        final long periodNanos = Math.max(HOUSEKEEPING_MIN_PERIOD_NANOS, Math.min(slowListenerNanos / 4, blockedAfterNanos / 2));
        final Doorbell doorbell = delivery.housekeeping();
        long busySince = System.nanoTime();
        while (!closed)
        {
            final long now = System.nanoTime();
            delivery.maintain(now);
            // The window's next growth allocated and filled here, not on the writer thread (tens of ms).
            final boolean grew = window.prepareGrowth() | window.copyAhead(GROWTH_COPY_PER_ROUND) > 0;
            if (grew || !delivery.isQuiet())
            {
                busySince = now;
            }
            if (now - busySince < WakeableIdleStrategy.DEEP_IDLE_AFTER_NANOS)
            {
                LockSupport.parkNanos(this, periodNanos);
                continue;
            }
            // Deep idle: no turn to watch, no growth to prepare. A turn rings once it has begun and
            // the writer rings when it expects a growth; the re-check after the arm sees a turn
            // that began before its ring could find the doorbell armed. Close interrupts.
            doorbell.arm();
            if (delivery.isQuiet() && !closed)
            {
                LockSupport.parkNanos(this, WakeableIdleStrategy.DEEP_PARK_NANOS);
            }
            doorbell.disarm();
            busySince = System.nanoTime() - WakeableIdleStrategy.DEEP_IDLE_AFTER_NANOS;
        }
    }
}
