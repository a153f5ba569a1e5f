package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.ThreadLatency;
import io.ringwatch.perf.load.ValueCodec;
import io.ringwatch.perf.load.Workload;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The j.u.c. baseline: the watchable store a team would write without RingWatch, in the shape of
 * the Kubernetes watch Broadcaster. A {@link ReentrantLock} guards a {@link HashMap} of current
 * values, the revision counter and the watcher routes; a put, under the lock, stores copies,
 * assigns the revision and offers an event object to the {@link LinkedBlockingQueue} of every
 * matching watcher; each watcher has its own thread taking from its queue (a goroutine per
 * watcher). Routing is fair to the baseline: prefixes are looked up in a hash map, once per
 * distinct prefix length, not by scanning every watcher. A watcher whose queue is full is
 * terminated, as the Kubernetes cacher terminates a watcher that cannot keep up.
 *
 * <p>Any thread may write; each put allocates its copies, key wrappers, the event and queue nodes.
 */
public final class LockedBroadcastPeer implements Peer
{
    private static final int QUEUE_CAPACITY = 64 * 1024;

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<ByteBuffer, Versioned> values = new HashMap<>();
    private final Map<ByteBuffer, List<QueueWatcher>> routes = new HashMap<>();
    private final List<QueueWatcher> watchers = new ArrayList<>();
    private int[] prefixLengths = new int[0];
    private long revision;

    @Override
    public String name()
    {
        return "juc";
    }

    @Override
    public String description()
    {
        return "j.u.c. baseline: ReentrantLock + HashMap + revision counter, a LinkedBlockingQueue(" + QUEUE_CAPACITY +
            ") and a thread per watcher";
    }

    @Override
    public void preload(final Workload workload)
    {
        final byte[] value = new byte[workload.valueSize()];
        for (int k = 0; k < workload.keyCount(); k++)
        {
            put(workload.key(k), value);
        }
    }

    @Override
    public void watch(
        final byte[] prefix, final boolean pull, final LatencyRecorder deliveries, final CancellationTally cancellations)
    {
        if (pull)
        {
            throw new IllegalArgumentException("the j.u.c. baseline has no pull watchers");
        }
        final QueueWatcher watcher = new QueueWatcher(prefix.clone(), deliveries, cancellations, watchers.size());
        lock.lock();
        try
        {
            routes.computeIfAbsent(ByteBuffer.wrap(watcher.prefix), p -> new ArrayList<>()).add(watcher);
            if (Arrays.stream(prefixLengths).noneMatch(length -> length == prefix.length))
            {
                prefixLengths = Arrays.copyOf(prefixLengths, prefixLengths.length + 1);
                prefixLengths[prefixLengths.length - 1] = prefix.length;
            }
            watchers.add(watcher);
        }
        finally
        {
            lock.unlock();
        }
        watcher.thread.start();
    }

    @Override
    public void ready()
    {
    }

    @Override
    public PeerWriter newWriter(final Workload workload, final LatencyRecorder acks)
    {
        final byte[] value = new byte[workload.valueSize()];
        final ThreadLatency ackLatency = acks.forCurrentThread();
        return (keyIndex, intendedNanos) ->
        {
            ValueCodec.writeIntended(value, intendedNanos);
            put(workload.key(keyIndex), value);
            ackLatency.record(intendedNanos, System.nanoTime());
        };
    }

    @Override
    public long failedWrites()
    {
        return 0;
    }

    @Override
    public void close()
    {
        for (final QueueWatcher watcher : watchers)
        {
            watcher.thread.interrupt();
        }
        for (final QueueWatcher watcher : watchers)
        {
            try
            {
                watcher.thread.join();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Stores copies of a key and value, assigns the next revision and queues the event to every
     * matching watcher. Any thread.
     *
     * @param key   the key; copied.
     * @param value the value; copied.
     * @return the revision of the put.
     */
    long put(final byte[] key, final byte[] value)
    {
        final byte[] keyCopy = key.clone();
        final byte[] valueCopy = value.clone();
        final ByteBuffer wrappedKey = ByteBuffer.wrap(keyCopy);
        lock.lock();
        try
        {
            final long putRevision = ++revision;
            final Versioned previous = values.get(wrappedKey);
            final Versioned current = previous == null ?
                new Versioned(valueCopy, putRevision, putRevision, 1) :
                new Versioned(valueCopy, previous.createRevision(), putRevision, previous.version() + 1);
            values.put(wrappedKey, current);
            // Queued under the lock so that every watcher sees revisions in order.
            final ChangeEvent event = new ChangeEvent(keyCopy, current);
            for (final int length : prefixLengths)
            {
                if (length <= keyCopy.length)
                {
                    final List<QueueWatcher> matching = routes.get(ByteBuffer.wrap(keyCopy, 0, length));
                    if (matching != null)
                    {
                        offerAll(matching, event);
                    }
                }
            }
            return putRevision;
        }
        finally
        {
            lock.unlock();
        }
    }

    private static void offerAll(final List<QueueWatcher> matching, final ChangeEvent event)
    {
        for (int i = matching.size() - 1; i >= 0; i--)
        {
            final QueueWatcher watcher = matching.get(i);
            if (!watcher.queue.offer(event))
            {
                matching.remove(i);
                watcher.terminate();
            }
        }
    }

    /** A key's current value and etcd-style revisions. */
    private record Versioned(byte[] value, long createRevision, long modRevision, long version)
    {
    }

    /** One change as a watcher receives it. */
    private record ChangeEvent(byte[] key, Versioned kv)
    {
    }

    /** A watcher: its queue and the thread that takes from it and records latency. */
    private static final class QueueWatcher
    {
        private final byte[] prefix;
        private final BlockingQueue<ChangeEvent> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
        private final CancellationTally cancellations;
        private final Thread thread;

        QueueWatcher(final byte[] prefix, final LatencyRecorder deliveries, final CancellationTally cancellations, final int index)
        {
            this.prefix = prefix;
            this.cancellations = cancellations;
            this.thread = new Thread(() -> drain(deliveries), "juc-watcher-" + index);
            thread.setDaemon(true);
        }

        void terminate()
        {
            cancellations.add("OVERFLOWED");
            thread.interrupt();
        }

        private void drain(final LatencyRecorder deliveries)
        {
            final ThreadLatency latency = deliveries.forCurrentThread();
            try
            {
                while (true)
                {
                    final ChangeEvent event = queue.take();
                    latency.record(ValueCodec.intendedNanos(event.kv().value()), System.nanoTime());
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
