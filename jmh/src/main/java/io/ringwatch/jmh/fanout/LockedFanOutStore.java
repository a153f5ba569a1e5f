package io.ringwatch.jmh.fanout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The fan-out baseline a team would write with j.u.c. alone: a lock-guarded {@link HashMap} of copies
 * keyed by {@link ByteBuffer} wrappers, a revision counter, and a list of {@link QueueWatcher}s that every
 * put scans, testing each watcher against the key (the naive linear-scan router) and queueing one shared
 * event object to each that matches. A fixed pool of {@code poolThreads} threads drains the watchers'
 * queues. Events reach each watcher in revision order because they are queued under the lock.
 * <p>
 * Any thread may call every method. {@link #put} allocates the copies, a key wrapper, a map value, an
 * event and one queue node per matching watcher; {@link #close()} stops the pool.
 */
final class LockedFanOutStore implements AutoCloseable
{
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<ByteBuffer, Versioned> map = new HashMap<>();
    private final ArrayList<QueueWatcher> watchers = new ArrayList<>();
    private final ExecutorService pool;
    private long revision;

    /**
     * Starts the drain pool. Any thread; allocates the map, the list and the pool.
     *
     * @param poolThreads the drain threads; at least 1.
     * @throws IllegalArgumentException if {@code poolThreads} is below 1.
     */
    LockedFanOutStore(final int poolThreads)
    {
        if (poolThreads < 1)
        {
            throw new IllegalArgumentException("need at least one drain thread: " + poolThreads);
        }
        pool = Executors.newFixedThreadPool(poolThreads, task ->
        {
            final Thread thread = new Thread(task, "locked-fan-out-drainer");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Adds a watcher of every key starting with {@code prefix}, from the next put on. Any thread.
     *
     * @param prefix the prefix; copied.
     * @param tally  where the watcher's deliveries are added.
     * @return the watcher.
     */
    QueueWatcher watchPrefix(final byte[] prefix, final DeliveryTally tally)
    {
        return add(new QueueWatcher(prefix.clone(), true, pool, tally));
    }

    /**
     * Adds a watcher of one key, from the next put on. Any thread.
     *
     * @param key   the key; copied.
     * @param tally where the watcher's deliveries are added.
     * @return the watcher.
     */
    QueueWatcher watchKey(final byte[] key, final DeliveryTally tally)
    {
        return add(new QueueWatcher(key.clone(), false, pool, tally));
    }

    /**
     * Stores a copy of the key's new value with etcd-style revisions and queues its event to every
     * watcher that matches. Any thread; allocates (see the class comment).
     *
     * @param key   the key.
     * @param value the value.
     * @return the revision of the put.
     */
    long put(final byte[] key, final byte[] value)
    {
        final byte[] keyCopy = key.clone();
        final byte[] valueCopy = value.clone();
        final ByteBuffer mapKey = ByteBuffer.wrap(keyCopy);
        lock.lock();
        try
        {
            final long putRevision = ++revision;
            final Versioned previous = map.get(mapKey);
            final Versioned current = previous == null ?
                new Versioned(valueCopy, putRevision, putRevision, 1) :
                new Versioned(valueCopy, previous.createRevision(), putRevision, previous.version() + 1);
            map.put(mapKey, current);
            final ChangeEvent event = new ChangeEvent(keyCopy, current);
            for (int i = 0, size = watchers.size(); i < size; i++)
            {
                final QueueWatcher watcher = watchers.get(i);
                if (watcher.matches(keyCopy))
                {
                    watcher.offer(event);
                }
            }
            return putRevision;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the newest revision. Any thread.
     */
    long currentRevision()
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

    /**
     * Stops the drain pool without waiting for it. Any thread.
     */
    @Override
    public void close()
    {
        pool.shutdownNow();
    }

    private QueueWatcher add(final QueueWatcher watcher)
    {
        lock.lock();
        try
        {
            watchers.add(watcher);
            return watcher;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** A key's value with etcd's revisions. */
    private record Versioned(byte[] value, long createRevision, long modRevision, long version)
    {
    }

    /** What a watcher receives: the key and its new state. */
    private record ChangeEvent(byte[] key, Versioned state)
    {
    }
}
