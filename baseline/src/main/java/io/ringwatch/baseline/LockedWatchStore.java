package io.ringwatch.baseline;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline a team would write without RingWatch, in the shape of the Kubernetes watch
 * Broadcaster: a {@link ReentrantLock} guards a {@link HashMap} of current values keyed by
 * {@link ByteBuffer} wrappers, an etcd-style revision counter and the watchers' routes; a put,
 * under the lock, stores copies of key and value, assigns the next revision and hands one shared
 * {@link ChangeEvent} to every matching {@link LockedWatcher} (its queue), so every watcher sees
 * revisions in order. The queues, and the threads that drain them, belong to the caller.
 * <p>
 * Every method may be called from any thread. {@link #put} allocates the copies, a key wrapper,
 * the event (which is also the map's value), a map node for a new key, a wrapper per hashed route
 * lookup and whatever the watchers' queues allocate. A watcher added during a put sees the puts
 * after it.
 */
public final class LockedWatchStore
{
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<ByteBuffer, ChangeEvent> values = new HashMap<>();
    private final Routes routes;
    private long revision;

    /**
     * An empty store at revision 0. Any thread; allocates the map and the routes.
     *
     * @param routing how puts find their watchers.
     * @throws NullPointerException if {@code routing} is null.
     */
    public LockedWatchStore(final Routing routing)
    {
        routes = switch (Objects.requireNonNull(routing, "routing"))
        {
            case LINEAR_SCAN -> new LinearScanRoutes();
            case HASHED -> new HashedRoutes();
        };
    }

    /**
     * Adds a watcher of every key that starts with {@code prefix} (the empty prefix: every key),
     * from the next put on. Any thread.
     *
     * @param prefix  the prefix; copied.
     * @param watcher the watcher's queue.
     * @throws NullPointerException if an argument is null.
     */
    public void watchPrefix(final byte[] prefix, final LockedWatcher watcher)
    {
        add(prefix, true, watcher);
    }

    /**
     * Adds a watcher of one key, from the next put on. Any thread.
     *
     * @param key     the key; copied.
     * @param watcher the watcher's queue.
     * @throws NullPointerException if an argument is null.
     */
    public void watchKey(final byte[] key, final LockedWatcher watcher)
    {
        add(key, false, watcher);
    }

    /**
     * Stores copies of a key and value, assigns the next revision and offers the event to every
     * matching watcher, removing each that refuses it. Any thread; allocates (see the class comment).
     *
     * @param key   the key; copied, so the caller may reuse it.
     * @param value the value; copied.
     * @return the revision of the put.
     * @throws NullPointerException if an argument is null.
     * @throws InterruptedException if interrupted while a watcher waited for room in its queue;
     *                              the put is stored, and the watchers after it have not seen it.
     */
    public long put(final byte[] key, final byte[] value) throws InterruptedException
    {
        final byte[] keyCopy = key.clone();
        final byte[] valueCopy = value.clone();
        final ByteBuffer wrappedKey = ByteBuffer.wrap(keyCopy);
        lock.lock();
        try
        {
            final long putRevision = ++revision;
            final ChangeEvent previous = values.get(wrappedKey);
            final ChangeEvent current = previous == null ?
                new ChangeEvent(keyCopy, valueCopy, putRevision, putRevision, 1) :
                new ChangeEvent(keyCopy, valueCopy, previous.createRevision(), putRevision, previous.version() + 1);
            values.put(wrappedKey, current);
            routes.offer(current);
            return putRevision;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the newest revision (0 before the first put). Any thread.
     */
    public long currentRevision()
    {
        lock.lock();
        try
        {
            return revision;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void add(final byte[] watched, final boolean prefix, final LockedWatcher watcher)
    {
        final byte[] copy = watched.clone();
        Objects.requireNonNull(watcher, "watcher");
        lock.lock();
        try
        {
            routes.add(copy, prefix, watcher);
        }
        finally
        {
            lock.unlock();
        }
    }
}
