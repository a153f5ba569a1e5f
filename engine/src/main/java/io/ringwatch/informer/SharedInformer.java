package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A local, always-current cache of a selection of keys with change handlers (client-go's
 * SharedIndexInformer), built on the engine's public list-then-watch.
 *
 * <p>One informer thread lists the selection at a revision R, watches it from R + 1 (no gap, no
 * duplicate), applies every change to the cache and tells each handler. When the watch is
 * cancelled (compaction, lapped or overflowing watch...), it lists again at a revision no older
 * than its cache and tells handlers only what really changed meanwhile: no lost update, no
 * duplicate add, and a plain {@code onDelete} with the last known object for a key that vanished
 * (client-go's DeletedFinalStateUnknown, unwrapped).
 *
 * <p>Each handler has its own thread and its own bounded buffer. A slow handler never delays the
 * informer or another handler: when its buffer is full its pending changes are coalesced per key
 * and it later receives the latest state (memory bounded by the number of keys, not the number of
 * changes; see {@link HandlerRegistration#overflowCount()}). A handler that throws is reported to
 * the {@link InformerErrorHandler} and keeps receiving. A handler may ask for a periodic resync,
 * which re-delivers every cached object as {@code onUpdate(obj, obj)}.
 *
 * <p>Threads: every method may be called from any thread. Lifecycle: {@link #start()} once,
 * {@link #stop()} (or {@link #close()}) once or more; after a stop, {@link #start()} and
 * {@link #addEventHandler} throw {@link InformerStoppedException}, while the cache stays
 * readable. Allocation: one key and one {@link CachedObject} per change, shared by the cache and
 * every handler; handlers' buffers are pre-allocated.
 */
public final class SharedInformer implements AutoCloseable
{
    private final String engineName;
    private final InformerConfig config;
    private final CacheStore store = new CacheStore();
    private final CacheLister lister = new CacheLister(store);
    private final ErrorReporter errors;
    private final MutationDetector detector;
    private final Reflector reflector;
    private final List<HandlerProcess> registrations = new ArrayList<>();
    private Thread reflectorThread;
    private int handlersAdded;
    private boolean stopped;

    /**
     * @param listerWatcher where the objects come from.
     * @param config        sizes, failure reporting, debug options.
     * @throws InvalidRequestException if an argument is null.
     */
    public SharedInformer(final ListerWatcher listerWatcher, final InformerConfig config)
    {
        if (listerWatcher == null || config == null)
        {
            throw new InvalidRequestException("lister-watcher and config must not be null");
        }
        this.config = config;
        this.engineName = listerWatcher.engineName();
        this.errors = new ErrorReporter(config.errorHandler());
        this.detector = new MutationDetector(config.detectsMutations(), errors);
        this.reflector = new Reflector(config.name(), listerWatcher, store, detector, errors, config);
    }

    /**
     * @param engine the engine.
     * @param range  the keys to cache.
     * @param config the informer's configuration.
     * @return an informer of {@code range}, not started yet.
     * @throws InvalidRequestException if an argument is null.
     */
    public static SharedInformer forRange(final RingWatch engine, final KeyRange range, final InformerConfig config)
    {
        return new SharedInformer(new RangeListerWatcher(engine, range), config);
    }

    /**
     * @param engine the engine.
     * @param range  the keys to cache.
     * @return an informer of {@code range} with the default configuration, not started yet.
     * @throws InvalidRequestException if an argument is null.
     */
    public static SharedInformer forRange(final RingWatch engine, final KeyRange range)
    {
        return forRange(engine, range, InformerConfig.defaults());
    }

    /**
     * @param engine     the engine.
     * @param indexName  a secondary index of the engine.
     * @param indexValue the index value whose objects to cache (a field selector's value).
     * @param config     the informer's settings.
     * @return an informer of the objects that {@code indexValue} selects, not started yet.
     * @throws InvalidRequestException if an argument is null.
     */
    public static SharedInformer forIndex(
        final RingWatch engine, final String indexName, final String indexValue, final InformerConfig config)
    {
        if (indexValue == null)
        {
            throw new InvalidRequestException("index value must not be null");
        }
        return new SharedInformer(
            new IndexListerWatcher(engine, indexName, indexValue.getBytes(java.nio.charset.StandardCharsets.UTF_8)), config);
    }

    /**
     * Starts the informer's thread and the threads of the handlers added so far. Returns at once;
     * see {@link #hasSynced()}.
     *
     * @throws InformerAlreadyStartedException if it was started before.
     * @throws InformerStoppedException        if it was stopped.
     */
    public synchronized void start()
    {
        requireNotStopped("start");
        if (reflectorThread != null)
        {
            throw new InformerAlreadyStartedException("informer " + config.name() + " is already started");
        }
        reflectorThread = new Thread(reflector, threadName());
        reflectorThread.setDaemon(true);
        reflectorThread.start();
        for (final HandlerProcess h : registrations)
        {
            startHandler(h);
        }
    }

    /**
     * Adds a handler that never resyncs. See {@link #addEventHandler(ResourceEventHandler, Duration)}.
     *
     * @param handler receives the notifications on its own thread.
     * @return its registration.
     * @throws InvalidRequestException  if the handler is null.
     * @throws InformerStoppedException if the informer was stopped.
     */
    public HandlerRegistration addEventHandler(final ResourceEventHandler handler)
    {
        return addEventHandler(handler, Duration.ZERO);
    }

    /**
     * Adds a handler with its own thread and bounded buffer. It is first told about every cached
     * object ({@code onAdd}), then about every change; its registration's
     * {@link HandlerRegistration#hasSynced()} turns true once those first adds were delivered.
     * Allocates the handler's buffer and, once started, its thread.
     *
     * @param handler      receives the notifications on its own thread.
     * @param resyncPeriod how often every cached object is re-delivered as
     *                     {@code onUpdate(obj, obj)}; {@link Duration#ZERO} for never.
     * @return its registration.
     * @throws InvalidRequestException  if the handler is null or the period null or negative.
     * @throws InformerStoppedException if the informer was stopped.
     */
    public synchronized HandlerRegistration addEventHandler(final ResourceEventHandler handler, final Duration resyncPeriod)
    {
        if (handler == null)
        {
            throw new InvalidRequestException("handler must not be null");
        }
        if (resyncPeriod == null || resyncPeriod.isNegative())
        {
            throw new InvalidRequestException("resync period must be zero or positive: " + resyncPeriod);
        }
        requireNotStopped("add a handler to");
        final String name = "handler-" + handlersAdded++;
        final HandlerProcess h = new HandlerProcess(
            name, handler, resyncPeriod, config.handlerBufferCapacity(), errors, config.stopTimeout().toNanos(), this::forget);
        registrations.add(h);
        reflector.admit(h);
        if (reflectorThread != null)
        {
            startHandler(h);
        }
        return h;
    }

    /**
     * @return true once the informer's first list has been applied to its cache (the cache is
     * populated; each handler's own sync is {@link HandlerRegistration#hasSynced()}).
     */
    public boolean hasSynced()
    {
        return reflector.hasSynced();
    }

    /**
     * Blocks until the cache is populated from the first list (client-go's WaitForCacheSync), the
     * timeout passes, or the informer stops. Call after {@link #start()}; any thread.
     *
     * @param timeout the longest to wait; zero or positive.
     * @return true when synced; false when the timeout passed or the informer stopped first.
     * @throws InterruptedException    if the calling thread is interrupted while waiting.
     * @throws InvalidRequestException if the timeout is null or negative.
     */
    public boolean awaitSynced(final Duration timeout) throws InterruptedException
    {
        return SyncWait.await(this::hasSynced, this::hasStopped, timeout);
    }

    /**
     * @return the revision the cache is known complete up to: the last list's revision, advanced
     * by each progress notification and, for each change applied, to the revision before it (a
     * revision of many changes, such as a prefix delete, may take several polls; the informer asks
     * for a progress notification, which names it once all of it is applied). 0 before the first list.
     */
    public long lastSyncRevision()
    {
        return reflector.lastSyncRevision();
    }

    /**
     * @return how many times the informer listed again after its watch was cancelled.
     */
    public long relistCount()
    {
        return reflector.relistCount();
    }

    /**
     * @return thread-safe reads of the cache.
     */
    public CacheLister lister()
    {
        return lister;
    }

    /**
     * Checks every cached object for mutation now, on the calling thread, and reports each newly
     * found one to the error handler as a {@link CacheMutationException}.
     *
     * @return the keys of the mutated cached objects; empty when none is, or when mutation
     * detection is off.
     */
    public List<ObjectKey> checkForMutations()
    {
        return detector.scan(store.objects());
    }

    private synchronized boolean hasStopped()
    {
        return stopped || (reflectorThread != null && !reflector.isRunning());
    }

    /**
     * @return true between {@link #start()} and the informer's stop (by {@link #stop()}, or by
     * its engine closing).
     */
    public synchronized boolean isRunning()
    {
        return reflectorThread != null && !stopped && reflector.isRunning();
    }

    /**
     * Stops the informer: ends its watch and its thread, then every handler's thread after the
     * call it is in, waiting up to the configured stop timeout for each. The cache stays
     * readable; a list still running when stop() is called (its join timed out) is not applied
     * once it completes. Idempotent.
     */
    public void stop()
    {
        final Thread thread;
        final List<HandlerProcess> handlers;
        synchronized (this)
        {
            if (stopped)
            {
                return;
            }
            stopped = true;
            thread = reflectorThread;
            handlers = new ArrayList<>(registrations);
            registrations.clear();
        }
        final long timeoutNanos = config.stopTimeout().toNanos();
        reflector.halt();
        if (thread != null && thread != Thread.currentThread())
        {
            try
            {
                thread.join(Math.max(1, timeoutNanos / 1_000_000));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        for (final HandlerProcess h : handlers)
        {
            h.stop(timeoutNanos);
        }
    }

    /**
     * Same as {@link #stop()}.
     */
    @Override
    public void close()
    {
        stop();
    }

    private void startHandler(final HandlerProcess h)
    {
        h.start(threadName() + "-" + h.name());
    }

    /** {@code <engine>-informer}, or {@code <engine>-informer-<name>} for an informer given a name. */
    private String threadName()
    {
        return InformerConfig.DEFAULT_NAME.equals(config.name()) ? engineName + "-informer" : engineName + "-informer-" + config.name();
    }

    private synchronized void forget(final HandlerProcess h)
    {
        registrations.remove(h);
    }

    private void requireNotStopped(final String action)
    {
        if (stopped || (reflectorThread != null && !reflector.isRunning()))
        {
            throw new InformerStoppedException("cannot " + action + " informer " + config.name() + ": it was stopped");
        }
    }

    @Override
    public String toString()
    {
        return "SharedInformer(" + config.name() + ", synced=" + hasSynced() + ", revision=" + lastSyncRevision() + ")";
    }
}
