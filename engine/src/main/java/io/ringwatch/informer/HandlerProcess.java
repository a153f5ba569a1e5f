package io.ringwatch.informer;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One handler's delivery: a bounded ring of notifications filled by the informer's thread and
 * drained by the handler's own thread (client-go's processorListener, but bounded).
 *
 * <p>Overflow policy: when the ring is full the informer never waits and never grows the ring.
 * It records the key in {@code pending}, with the object the handler last saw for it, and from
 * then on routes every change through {@code pending} (so per-key order holds) until the ring has
 * drained it. Draining reads the key's current cached object and sends the one notification
 * that takes the handler from what it saw to what is cached: add, update, delete, or nothing.
 * Memory is bounded by the ring plus one entry per distinct key, however many changes arrive.
 * Registration (initial adds) and resync (updates with {@code old == new}) use the same map.
 *
 * <p>Invariant, on the informer's thread: for a key not in {@code pending}, the handler's view
 * once it has drained the ring equals the cache; for a key in it, the view is
 * {@link PendingKey#lastSeen}.
 *
 * <p>Threads: methods marked "informer thread" are called only by the informer's thread;
 * {@link #run()} is the handler's thread; the rest are safe from any thread.
 */
final class HandlerProcess implements HandlerRegistration, Runnable, NotificationRing.Consumer
{
    private static final int RUNNING = 0;
    private static final int DRAINING = 1;
    private static final int STOPPED = 2;

    private final String name;
    private final ResourceEventHandler handler;
    private final Duration resyncPeriod;
    private final NotificationRing ring;
    private final ErrorReporter errors;
    private final long stopTimeoutNanos;
    private final Consumer<HandlerProcess> onRemove;

    private final LinkedHashMap<ObjectKey, PendingKey> pending = new LinkedHashMap<>();
    private boolean syncPending;
    private long nextResyncNanos;

    private volatile long overflows;
    private volatile boolean synced;
    private volatile int state = RUNNING;
    private volatile boolean waiting;
    private volatile Thread thread;

    HandlerProcess(
        final String name,
        final ResourceEventHandler handler,
        final Duration resyncPeriod,
        final int bufferCapacity,
        final ErrorReporter errors,
        final long stopTimeoutNanos,
        final Consumer<HandlerProcess> onRemove)
    {
        this.name = name;
        this.handler = handler;
        this.resyncPeriod = resyncPeriod;
        this.ring = new NotificationRing(bufferCapacity);
        this.errors = errors;
        this.stopTimeoutNanos = stopTimeoutNanos;
        this.onRemove = onRemove;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public boolean hasSynced()
    {
        return synced;
    }

    @Override
    public Duration resyncPeriod()
    {
        return resyncPeriod;
    }

    @Override
    public long overflowCount()
    {
        return overflows;
    }

    @Override
    public void remove()
    {
        stop(stopTimeoutNanos);
        onRemove.accept(this);
    }

    @Override
    public boolean isRemoved()
    {
        return state == STOPPED;
    }

    /**
     * Starts the handler's thread.
     */
    void start(final String threadName)
    {
        final Thread t = new Thread(this, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * Informer thread: the handler joins the informer. When the informer has synced, every
     * cached key is queued as an add, followed by the sync marker.
     */
    void activate(final CacheStore store, final boolean informerSynced, final long nowNanos)
    {
        if (informerSynced)
        {
            for (final ObjectKey key : store.keys())
            {
                pending.put(key, new PendingKey(null, false));
            }
            syncPending = true;
        }
        nextResyncNanos = nowNanos + resyncPeriod.toNanos();
    }

    /**
     * Informer thread: the informer's first list is complete; the sync marker follows it.
     */
    void markSyncPoint()
    {
        syncPending = true;
    }

    /**
     * Informer thread: a cached key changed from {@code before} to {@code after} (either may be
     * null: added, deleted).
     */
    void onChange(final ObjectKey key, final CachedObject before, final CachedObject after)
    {
        if (!pending.isEmpty())
        {
            pending.putIfAbsent(key, new PendingKey(before, false));
            return;
        }
        if (emit(before, after, false))
        {
            wakeHandler();
        }
        else
        {
            overflows++;
            pending.put(key, new PendingKey(before, false));
        }
    }

    /**
     * Informer thread: moves pending keys into the ring while it has room, then the sync marker
     * once nothing is pending.
     *
     * @return the number of keys moved.
     */
    int flush(final CacheStore store)
    {
        int moved = 0;
        final Iterator<Map.Entry<ObjectKey, PendingKey>> it = pending.entrySet().iterator();
        while (it.hasNext())
        {
            final Map.Entry<ObjectKey, PendingKey> entry = it.next();
            final PendingKey p = entry.getValue();
            if (!emit(p.lastSeen, store.get(entry.getKey()), p.resync))
            {
                break;
            }
            it.remove();
            moved++;
        }
        if (syncPending && pending.isEmpty() && ring.freeSlots() > 0)
        {
            ring.push(NotificationRing.SYNCED, null, null);
            syncPending = false;
            moved++;
        }
        if (moved > 0)
        {
            wakeHandler();
        }
        return moved;
    }

    /**
     * Informer thread: queues a resync (every cached object re-delivered) when it is due.
     */
    void resyncIfDue(final CacheStore store, final long nowNanos, final boolean informerSynced)
    {
        if (resyncPeriod.isZero() || nowNanos - nextResyncNanos < 0)
        {
            return;
        }
        nextResyncNanos = nowNanos + resyncPeriod.toNanos();
        if (informerSynced)
        {
            for (final CachedObject obj : store.objects())
            {
                final PendingKey p = pending.get(obj.key());
                if (p == null)
                {
                    pending.put(obj.key(), new PendingKey(obj, true));
                }
                else
                {
                    p.resync = true;
                }
            }
        }
    }

    /**
     * The informer stopped feeding this handler: it delivers what its ring holds, then its
     * thread ends.
     */
    void finish()
    {
        if (state == RUNNING)
        {
            state = DRAINING;
        }
        LockSupport.unpark(thread);
    }

    /**
     * @return false once the informer has stopped feeding this handler or it was stopped.
     */
    boolean isFed()
    {
        return state == RUNNING;
    }

    /**
     * Stops the handler after any call in progress and waits up to {@code joinNanos} for its
     * thread (never for itself).
     */
    void stop(final long joinNanos)
    {
        state = STOPPED;
        final Thread t = thread;
        if (t == null)
        {
            return;
        }
        LockSupport.unpark(t);
        if (joinNanos > 0 && t != Thread.currentThread())
        {
            try
            {
                t.join(Math.max(1, joinNanos / 1_000_000));
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The handler's thread: takes notifications and calls the handler until stopped, parking
     * while the ring is empty.
     */
    @Override
    public void run()
    {
        while (true)
        {
            final int s = state;
            if (s == STOPPED)
            {
                return;
            }
            if (ring.take(this))
            {
                continue;
            }
            if (s == DRAINING)
            {
                return;
            }
            waiting = true;
            if (ring.isEmpty() && state == RUNNING)
            {
                LockSupport.park(this);
            }
            waiting = false;
        }
    }

    /**
     * Handler thread (or a test draining on its own thread): calls the handler for one
     * notification; a throw is reported and the handler keeps receiving.
     */
    @Override
    public void accept(final byte kind, final CachedObject oldObj, final CachedObject newObj)
    {
        if (kind == NotificationRing.SYNCED)
        {
            synced = true;
            return;
        }
        if (state == STOPPED)
        {
            return;
        }
        try
        {
            switch (kind)
            {
                case NotificationRing.ADD -> handler.onAdd(newObj);
                case NotificationRing.UPDATE -> handler.onUpdate(oldObj, newObj);
                default -> handler.onDelete(oldObj);
            }
        }
        catch (final RuntimeException | Error e)
        {
            final String callback = kind == NotificationRing.ADD ? "onAdd" : kind == NotificationRing.UPDATE ? "onUpdate" : "onDelete";
            errors.report(new HandlerFailedException(name, callback, (newObj != null ? newObj : oldObj).key(), e));
        }
    }

    /**
     * Delivers what the ring holds on the calling thread, for a test that runs no handler
     * thread.
     *
     * @return the number of notifications taken.
     */
    int deliverQueued()
    {
        int taken = 0;
        while (ring.take(this))
        {
            taken++;
        }
        return taken;
    }

    /**
     * Informer thread: queues the notifications that take the handler's view of one key from
     * {@code before} to {@code after}, all or none.
     *
     * @return false when the ring lacks room (nothing was queued).
     */
    private boolean emit(final CachedObject before, final CachedObject after, final boolean resync)
    {
        if (before == null && after == null)
        {
            return true;
        }
        if (before == after && !resync)
        {
            return true;
        }
        final boolean recreated = before != null && after != null && !before.sameIncarnationAs(after);
        if (ring.freeSlots() < (recreated ? 2 : 1))
        {
            return false;
        }
        if (before == null)
        {
            ring.push(NotificationRing.ADD, null, after);
        }
        else if (after == null)
        {
            ring.push(NotificationRing.DELETE, before, null);
        }
        else if (recreated)
        {
            // Deleted and created again while unseen: tell it as it happened, not as an update.
            ring.push(NotificationRing.DELETE, before, null);
            ring.push(NotificationRing.ADD, null, after);
        }
        else
        {
            ring.push(NotificationRing.UPDATE, before, after);
        }
        return true;
    }

    private void wakeHandler()
    {
        if (waiting)
        {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public String toString()
    {
        return "HandlerRegistration(" + name + ", resync=" + resyncPeriod + ", overflows=" + overflows + ")";
    }
}
