package io.ringwatch.informer;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The informer's thread (client-go's Reflector, DeltaFIFO and sharedProcessor in one loop, since
 * RingWatch's list-then-watch already has no gap and no duplicate): lists, watches from the
 * list's revision + 1, applies each change to the cache, and tells every handler. When the watch
 * is cancelled for any reason but the engine closing, it lists again (refusing a list older than
 * its cache), applies only the differences to the cache, and tells handlers about those.
 *
 * <p>It is the only writer of the cache and the only producer into every handler's ring, so none
 * of that needs a lock. Handlers arrive through a concurrent queue and are activated here, at a
 * point between changes, so each sees every change exactly once. Allocates one key and one
 * cached object per change, and a key set per relist.
 */
final class Reflector implements Runnable, WatchListener
{
    private final ListerWatcher listerWatcher;
    private final CacheStore store;
    private final MutationDetector detector;
    private final ErrorReporter errors;
    private final IdleStrategy idle;
    private final int pollBatchSize;
    private final long backoffMinNanos;
    private final long backoffMaxNanos;
    private final long mutationCheckNanos;
    private final String name;
    private final Queue<HandlerProcess> arrivals = new ConcurrentLinkedQueue<>();
    private final List<HandlerProcess> handlers = new ArrayList<>();

    private PullWatcher watcher;
    private WatchCancellation ended;
    private boolean watchDelivered;
    private long backoffNanos;
    private long relistNotBeforeNanos;
    private long nextMutationCheckNanos;

    private volatile boolean running = true;
    private volatile boolean synced;
    private volatile long lastSyncRevision;
    private volatile long relists;

    Reflector(
        final String name,
        final ListerWatcher listerWatcher,
        final CacheStore store,
        final MutationDetector detector,
        final ErrorReporter errors,
        final InformerConfig config)
    {
        this.name = name;
        this.listerWatcher = listerWatcher;
        this.store = store;
        this.detector = detector;
        this.errors = errors;
        this.idle = config.idleStrategy().get();
        this.pollBatchSize = config.pollBatchSize();
        this.backoffMinNanos = config.relistBackoffMin().toNanos();
        this.backoffMaxNanos = config.relistBackoffMax().toNanos();
        this.mutationCheckNanos = config.detectsMutations() ? config.mutationCheckInterval().toNanos() : 0;
        this.backoffNanos = backoffMinNanos;
    }

    /**
     * Any thread: the handler joins at the informer's next step, or, when the informer has
     * stopped, is finished (it drains nothing and its thread ends).
     */
    void admit(final HandlerProcess handler)
    {
        arrivals.add(handler);
        if (!running)
        {
            // The loop clears running before it finishes the arrivals, so a handler added after
            // that pass (the engine closed between the caller's check and this add) is finished here.
            handler.finish();
        }
    }

    /**
     * Any thread: ends the loop; the caller then joins the thread.
     */
    void halt()
    {
        running = false;
    }

    boolean isRunning()
    {
        return running;
    }

    boolean hasSynced()
    {
        return synced;
    }

    long lastSyncRevision()
    {
        return lastSyncRevision;
    }

    long relistCount()
    {
        return relists;
    }

    @Override
    public void run()
    {
        try
        {
            nextMutationCheckNanos = System.nanoTime() + mutationCheckNanos;
            while (running)
            {
                final long now = System.nanoTime();
                admitArrivals(now);
                int work = 0;
                if (watcher == null)
                {
                    if (now - relistNotBeforeNanos >= 0)
                    {
                        work += listAndWatch(now);
                    }
                }
                else
                {
                    work += watcher.poll(this, pollBatchSize);
                    if (ended != null)
                    {
                        work++;
                        watchEnded(now);
                    }
                }
                for (int i = 0; i < handlers.size(); i++)
                {
                    final HandlerProcess h = handlers.get(i);
                    h.resyncIfDue(store, now, synced);
                    work += h.flush(store);
                }
                if (mutationCheckNanos > 0 && now - nextMutationCheckNanos >= 0)
                {
                    nextMutationCheckNanos = now + mutationCheckNanos;
                    detector.scan(store.objects());
                }
                idle.idle(work);
            }
        }
        catch (final RuntimeException | Error e)
        {
            errors.report(new InformerStoppedException("informer " + name + " stopped on an unexpected failure", e));
            running = false;
        }
        finally
        {
            if (watcher != null)
            {
                watcher.cancel();
            }
            for (final HandlerProcess h : handlers)
            {
                h.finish();
            }
            HandlerProcess waiting;
            while ((waiting = arrivals.poll()) != null)
            {
                waiting.finish();
            }
        }
    }

    @Override
    public void onEvents(final EventBatch batch)
    {
        long revision = 0;
        for (int i = 0; i < batch.size(); i++)
        {
            final WatchEvent e = batch.get(i);
            final byte[] keyBytes = new byte[e.keyLength()];
            e.keyBuffer().getBytes(0, keyBytes);
            final ObjectKey key = ObjectKey.adopt(keyBytes);
            if (e.type() == EventType.PUT && listerWatcher.selects(e))
            {
                final byte[] value = new byte[e.valueLength()];
                e.valueBuffer().getBytes(0, value);
                final CachedObject obj = new CachedObject(
                    key, value, e.createRevision(), e.modRevision(), e.version(), detector.seal(value));
                changed(key, store.put(obj), obj);
            }
            else
            {
                final CachedObject gone = store.remove(key);
                if (gone != null)
                {
                    changed(key, gone, null);
                }
            }
            revision = e.revision();
        }
        watchDelivered = true;
        // A poll may end inside a revision (a prefix delete of thousands of keys): only the one before
        // is known whole, until the next revision's event or a progress notification confirms it.
        if (revision - 1 > lastSyncRevision)
        {
            lastSyncRevision = revision - 1;
        }
        if (revision > lastSyncRevision)
        {
            watcher.requestProgress();
        }
    }

    /**
     * A progress notification is exact (every change up to it delivered before it), so it confirms
     * the revision of the last change applied.
     */
    @Override
    public void onProgress(final long revision)
    {
        watchDelivered = true;
        if (revision > lastSyncRevision)
        {
            lastSyncRevision = revision;
        }
    }

    @Override
    public void onCancelled(final WatchCancellation cancellation)
    {
        ended = cancellation;
    }

    private void admitArrivals(final long now)
    {
        HandlerProcess h;
        while ((h = arrivals.poll()) != null)
        {
            h.activate(store, synced, now);
            handlers.add(h);
        }
        final Iterator<HandlerProcess> it = handlers.iterator();
        while (it.hasNext())
        {
            if (it.next().isRemoved())
            {
                it.remove();
            }
        }
    }

    /**
     * Lists, brings the cache to the list's state, and watches from the next revision.
     *
     * @return 1 when it listed, 0 when it must retry later.
     */
    private int listAndWatch(final long now)
    {
        final RangeResult listing;
        try
        {
            listing = listerWatcher.list();
        }
        catch (final EngineClosedException e)
        {
            engineClosed();
            return 0;
        }
        catch (final RuntimeException e)
        {
            errors.report(e);
            retryLater(now);
            return 0;
        }
        if (!running)
        {
            // stop() came during the list and may have returned already (its join timed out): a
            // stopped informer's cache and handlers must not change any more.
            return 0;
        }
        if (listing.revision() < lastSyncRevision)
        {
            // A list older than the cache would roll it back (client-go lists "not older than").
            retryLater(now);
            return 0;
        }
        final boolean first = !synced;
        if (!first)
        {
            relists++;
        }
        replace(listing);
        if (first)
        {
            synced = true;
            for (final HandlerProcess h : handlers)
            {
                h.markSyncPoint();
            }
        }
        lastSyncRevision = listing.revision();
        watchDelivered = false;
        try
        {
            watcher = listerWatcher.watch(listing.revision() + 1);
        }
        catch (final EngineClosedException e)
        {
            engineClosed();
        }
        catch (final RuntimeException e)
        {
            errors.report(e);
            retryLater(now);
        }
        return 1;
    }

    /**
     * Brings the cache to a list's state, telling handlers only about real differences
     * (client-go's Replace): new keys are adds, changed objects updates (a delete and an add when
     * the key was re-created meanwhile), cached keys absent from the list deletes carrying their
     * last known object. Objects with the same revisions are kept as they are.
     */
    private void replace(final RangeResult listing)
    {
        final Set<ObjectKey> listed = new HashSet<>(listing.kvs().size() * 2);
        for (final KeyValue kv : listing.kvs())
        {
            final ObjectKey key = ObjectKey.adopt(kv.key());
            listed.add(key);
            final CachedObject cached = store.get(key);
            if (cached != null && cached.modRevision() == kv.modRevision() && cached.createRevision() == kv.createRevision())
            {
                continue;
            }
            final byte[] value = kv.value();
            final CachedObject obj = new CachedObject(
                key, value, kv.createRevision(), kv.modRevision(), kv.version(), detector.seal(value));
            changed(key, store.put(obj), obj);
        }
        final Iterator<ObjectKey> it = store.keys().iterator();
        while (it.hasNext())
        {
            final ObjectKey key = it.next();
            if (!listed.contains(key))
            {
                final CachedObject gone = store.remove(key);
                if (gone != null)
                {
                    changed(key, gone, null);
                }
            }
        }
    }

    private void watchEnded(final long now)
    {
        final WatchCancellation cancellation = ended;
        ended = null;
        watcher = null;
        if (cancellation.reason() == CancelReason.ENGINE_CLOSED)
        {
            engineClosed();
            return;
        }
        if (cancellation.cause() != null)
        {
            errors.report(cancellation.cause());
        }
        if (watchDelivered)
        {
            backoffNanos = backoffMinNanos;
            relistNotBeforeNanos = now;
        }
        else
        {
            // A watch that ended before delivering anything would spin list after list.
            retryLater(now);
        }
    }

    private void retryLater(final long now)
    {
        relistNotBeforeNanos = now + backoffNanos;
        backoffNanos = Math.min(backoffMaxNanos, backoffNanos * 2);
    }

    private void engineClosed()
    {
        errors.report(new InformerStoppedException("informer " + name + " stopped: the engine closed"));
        running = false;
    }

    private void changed(final ObjectKey key, final CachedObject before, final CachedObject after)
    {
        if (before != null)
        {
            detector.verify(before);
        }
        for (int i = 0; i < handlers.size(); i++)
        {
            handlers.get(i).onChange(key, before, after);
        }
    }
}
