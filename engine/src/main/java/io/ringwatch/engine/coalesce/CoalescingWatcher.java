package io.ringwatch.engine.coalesce;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.Delta;
import io.ringwatch.engine.watch.DeltaBatch;
import io.ringwatch.engine.watch.DeltaWatcher;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

/**
 * A {@link DeltaWatcher} over an ordinary push watch: its listener, on a delivery thread, folds
 * each event into a map of the latest state per key, and {@link #next} swaps that map out. The
 * listener does constant work per event and never waits for the client, so the push watch keeps
 * up however rarely the client calls; memory is the map, one entry per key changed since the
 * last call.
 *
 * <p>Should the push watch still end because the engine no longer holds its next event (it was
 * lapped, the revision it must resume from is gone, or it fell behind and was compacted past; a
 * start revision already compacted when the watch is created ends it instead), the next {@link #next} call lists the
 * range again on the caller's thread, and hands the listing over as a reset batch, merged with
 * whatever changed since the listing: client-go's relist, without the client's help.
 *
 * <p>Threads: the listener runs on one delivery thread at a time; {@link #next} on one client
 * thread at a time; they meet under a lock held for one batch of events or one swap, never
 * while either waits. Allocates per event a copy of the key when it is not pending yet, and a
 * copy of the new value.
 */
public final class CoalescingWatcher implements DeltaWatcher
{
    private final WatchRequest request;
    private final BiFunction<WatchRequest, WatchListener, Watcher> watch;
    private final BiFunction<WatchRequest, WatchListener, ListWatch<Watcher>> listAndWatch;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final long id;
    /** The first watch's resolved start revision; a relist later does not change it. */
    private final long startRevision;

    /** The first push watch's listener: a compaction that ends it at its start is the client's to see. */
    private final Subscription first;

    // Guarded by lock.
    /** Set once the first watch is stored: until then its COMPACTED ending may be its start's. */
    private boolean started;
    /** The first watch was refused at its start revision, which is compacted: that ends this watcher. */
    private boolean startCompacted;
    /** Why the watch ended for want of history, while a relist is owed. */
    private WatchCancellation lostWith;
    private LinkedHashMap<PendingKey, Delta> pending = new LinkedHashMap<>();
    private long completeRevision;
    /** The complete revision of the last batch {@link #next} returned: a later one is news. */
    private long handedComplete;
    private long lastEventRevision;
    private boolean relistNeeded;
    private boolean resetPending;
    private WatchCancellation cancellation;
    private Subscription subscription;

    private CoalescingWatcher(
        final WatchRequest request,
        final BiFunction<WatchRequest, WatchListener, Watcher> watch,
        final BiFunction<WatchRequest, WatchListener, ListWatch<Watcher>> listAndWatch)
    {
        this.request = request;
        this.watch = watch;
        this.listAndWatch = listAndWatch;
        first = new Subscription();
        lock.lock();
        try
        {
            subscription = first;
            completeRevision = Math.max(0, request.startRevision() - 1);
            handedComplete = completeRevision;
            lastEventRevision = completeRevision;
        }
        finally
        {
            lock.unlock();
        }
        final Watcher created = watch.apply(request, first);
        first.watcher = created;
        this.id = created.id();
        this.startRevision = created.startRevision();
        // A watch whose start is compacted is cancelled before watch() returns; one compacted
        // after it fell behind (as etcd cancels unsynced watchers) has lost its events: relisted.
        final WatchCancellation atStart = created.cancellation();
        lock.lock();
        try
        {
            started = true;
            startCompacted = atStart != null && atStart.reason() == CancelReason.COMPACTED;
            if (startCompacted && relistNeeded && subscription == first)
            {
                relistNeeded = false;
                endLocked(lostWith);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Starts a coalescing watch. Any thread.
     *
     * @param request      what to watch and from which revision (0: from now).
     * @param watch        starts a push watch (the engine's {@code watch}).
     * @param listAndWatch lists a range and watches on from the next revision (the engine's
     *                     {@code listAndWatch}), used when the events missed are gone.
     * @return the running watcher.
     * @throws InvalidRequestException if an argument is null, or as {@code watch} refuses the request.
     */
    public static CoalescingWatcher open(
        final WatchRequest request,
        final BiFunction<WatchRequest, WatchListener, Watcher> watch,
        final BiFunction<WatchRequest, WatchListener, ListWatch<Watcher>> listAndWatch)
    {
        if (request == null || watch == null || listAndWatch == null)
        {
            throw new InvalidRequestException("watch request and sources must not be null");
        }
        return new CoalescingWatcher(request, watch, listAndWatch);
    }

    @Override
    public long id()
    {
        return id;
    }

    @Override
    public long startRevision()
    {
        return startRevision;
    }

    @Override
    public WatchRequest request()
    {
        return request;
    }

    @Override
    public DeltaBatch next(final Duration timeout) throws InterruptedException
    {
        if (timeout == null || timeout.isNegative())
        {
            throw new InvalidRequestException("timeout must be zero or positive: " + timeout);
        }
        relistIfNeeded();
        final Watcher current = currentWatcher();
        if (current != null)
        {
            current.requestProgress();
        }
        long remaining = timeout.toNanos();
        lock.lockInterruptibly();
        try
        {
            // Against what the last call handed over, not what stood at this call's start: the
            // progress an earlier call asked for may have come in between the two calls.
            while (pending.isEmpty() && !resetPending && cancellation == null && !relistNeeded &&
                completeRevision == handedComplete && remaining > 0)
            {
                remaining = changed.awaitNanos(remaining);
            }
            final List<Delta> deltas = new ArrayList<>(pending.values());
            pending = new LinkedHashMap<>();
            final boolean reset = resetPending;
            resetPending = false;
            handedComplete = completeRevision;
            return new DeltaBatch(deltas, completeRevision, reset, cancellation);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void cancel()
    {
        final Watcher current;
        lock.lock();
        try
        {
            if (cancellation == null)
            {
                cancellation = new WatchCancellation(CancelReason.CANCELLED_BY_CLIENT, 0, null, "cancelled by the client");
            }
            // Null after an earlier cancel: a second one does nothing.
            current = subscription == null ? null : subscription.watcher;
            subscription = null;
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        if (current != null)
        {
            current.cancel();
        }
    }

    @Override
    public boolean isCancelled()
    {
        return cancellation() != null;
    }

    @Override
    public WatchCancellation cancellation()
    {
        lock.lock();
        try
        {
            return cancellation;
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void requestProgress()
    {
        final Watcher current = currentWatcher();
        if (current != null)
        {
            current.requestProgress();
        }
    }

    private Watcher currentWatcher()
    {
        lock.lock();
        try
        {
            return subscription == null ? null : subscription.watcher;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Lists the range again when the push watch ended for want of history, on the client's
     * thread: the new watch's events may arrive before the listing is merged, so a listed key
     * is taken only where no newer change of it is pending.
     */
    private void relistIfNeeded()
    {
        final Subscription fresh;
        lock.lock();
        try
        {
            if (!relistNeeded || cancellation != null)
            {
                return;
            }
            relistNeeded = false;
            lostWith = null;
            fresh = new Subscription();
            subscription = fresh;
            pending = new LinkedHashMap<>();
        }
        finally
        {
            lock.unlock();
        }
        final ListWatch<Watcher> listed;
        try
        {
            listed = listAndWatch.apply(request.startRevision(0), fresh);
        }
        catch (final EngineClosedException e)
        {
            end(fresh, new WatchCancellation(CancelReason.ENGINE_CLOSED, 0, e, "the engine closed before the range was listed again"));
            return;
        }
        catch (final RuntimeException e)
        {
            end(fresh, new WatchCancellation(CancelReason.REVISION_UNAVAILABLE, 0, e, "listing the range again failed: " + e));
            return;
        }
        lock.lock();
        try
        {
            fresh.watcher = listed.watcher();
            if (subscription != fresh)
            {
                fresh.watcher.cancel();
                return;
            }
            final LinkedHashMap<PendingKey, Delta> merged = new LinkedHashMap<>();
            for (final KeyValue kv : listed.snapshot().kvs())
            {
                final PendingKey key = new PendingKey(kv.key());
                if (!pending.containsKey(key))
                {
                    merged.put(key, Delta.present(key.bytes, kv));
                }
            }
            merged.putAll(pending);
            pending = merged;
            resetPending = true;
            completeRevision = Math.max(completeRevision, listed.snapshot().revision());
            lastEventRevision = Math.max(lastEventRevision, listed.snapshot().revision());
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
    }

    private void end(final Subscription from, final WatchCancellation ending)
    {
        lock.lock();
        try
        {
            if (subscription == from)
            {
                endLocked(ending);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Under the lock: ends this watcher, unless it has ended already. */
    private void endLocked(final WatchCancellation ending)
    {
        if (cancellation == null)
        {
            cancellation = ending;
            changed.signalAll();
        }
    }

    /** One push watch's listener; a watch replaced by a relist is ignored from then on. */
    private final class Subscription implements WatchListener
    {
        private volatile Watcher watcher;

        @Override
        public void onEvents(final EventBatch batch)
        {
            lock.lock();
            try
            {
                if (subscription != this)
                {
                    return;
                }
                for (int i = 0, size = batch.size(); i < size; i++)
                {
                    fold(batch.get(i));
                }
                changed.signalAll();
            }
            finally
            {
                lock.unlock();
            }
        }

        @Override
        public void onProgress(final long revision)
        {
            lock.lock();
            try
            {
                if (subscription == this && revision > completeRevision)
                {
                    completeRevision = revision;
                    changed.signalAll();
                }
            }
            finally
            {
                lock.unlock();
            }
        }

        @Override
        public void onCancelled(final WatchCancellation ending)
        {
            final CancelReason reason = ending.reason();
            if (reason == CancelReason.LAPPED || reason == CancelReason.REVISION_UNAVAILABLE ||
                reason == CancelReason.OVERFLOWED || reason == CancelReason.SLOW_LISTENER ||
                reason == CancelReason.COMPACTED)
            {
                lock.lock();
                try
                {
                    if (subscription != this)
                    {
                        return;
                    }
                    if (reason == CancelReason.COMPACTED && this == first && started && startCompacted)
                    {
                        endLocked(ending);
                    }
                    else if (cancellation == null)
                    {
                        // Before the first watch is stored, the constructor decides whether its start was compacted.
                        relistNeeded = true;
                        lostWith = ending;
                        changed.signalAll();
                    }
                }
                finally
                {
                    lock.unlock();
                }
                return;
            }
            end(this, ending);
        }

        /** Under the lock: the event replaces whatever was pending for its key. */
        private void fold(final WatchEvent event)
        {
            final long revision = event.revision();
            if (revision > lastEventRevision)
            {
                // Events come in revision order: every earlier revision is complete.
                completeRevision = Math.max(completeRevision, revision - 1);
                lastEventRevision = revision;
            }
            final byte[] key = new byte[event.keyLength()];
            event.keyBuffer().getBytes(0, key);
            final PendingKey pendingKey = new PendingKey(key);
            // Removed first, so that the map's order follows each key's newest change.
            pending.remove(pendingKey);
            if (event.type() == EventType.DELETE)
            {
                pending.put(pendingKey, Delta.removed(key, revision));
            }
            else
            {
                final byte[] value = new byte[event.valueLength()];
                event.valueBuffer().getBytes(0, value);
                pending.put(pendingKey, Delta.present(key, new KeyValue(key, value, event.createRevision(), event.modRevision(), event.version(), event.lease())));
            }
        }
    }

    /** A key's bytes compared by content. */
    private static final class PendingKey
    {
        private final byte[] bytes;
        private final int hash;

        PendingKey(final byte[] bytes)
        {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(final Object o)
        {
            return o instanceof PendingKey && Arrays.equals(bytes, ((PendingKey)o).bytes);
        }

        @Override
        public int hashCode()
        {
            return hash;
        }
    }
}
