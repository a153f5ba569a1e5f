package io.ringwatch.perf.peer;

import io.ringwatch.baseline.ChangeEvent;
import io.ringwatch.baseline.LockedWatchStore;
import io.ringwatch.baseline.LockedWatcher;
import io.ringwatch.baseline.Routing;
import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.ThreadLatency;
import io.ringwatch.perf.load.ValueCodec;
import io.ringwatch.perf.load.Workload;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The j.u.c. baseline: the watchable store a team would write without RingWatch, in the shape of
 * the Kubernetes watch Broadcaster ({@link LockedWatchStore}, the same store the JMH benchmarks
 * measure): a {@link java.util.concurrent.locks.ReentrantLock} guards a {@code HashMap} of current
 * values, the revision counter and the watcher routes; a put, under the lock, stores copies,
 * assigns the revision and offers an event object to the {@link LinkedBlockingQueue} of every
 * matching watcher; each watcher has its own thread taking from its queue (a goroutine per
 * watcher). Routing is fair to the baseline ({@link Routing#HASHED}): prefixes are looked up in a
 * hash map, once per distinct prefix length, not by scanning every watcher. A watcher whose queue
 * is full is terminated, as the Kubernetes cacher terminates a watcher that cannot keep up.
 *
 * <p>Any thread may write; each put allocates its copies, key wrappers, the event and queue nodes.
 */
public final class LockedBroadcastPeer implements Peer
{
    private static final int QUEUE_CAPACITY = 64 * 1024;

    private final LockedWatchStore store = new LockedWatchStore(Routing.HASHED);
    private final List<QueueWatcher> watchers = new CopyOnWriteArrayList<>();

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
        final QueueWatcher watcher = new QueueWatcher(deliveries, cancellations, watchers.size());
        watchers.add(watcher);
        store.watchPrefix(prefix, watcher);
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
        try
        {
            return store.put(key, value);
        }
        catch (final InterruptedException e)
        {
            // Offers never wait (a full queue terminates its watcher), so only a stray interrupt lands here.
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while putting", e);
        }
    }

    /** A watcher: its queue and the thread that takes from it and records latency. */
    private static final class QueueWatcher implements LockedWatcher
    {
        private final BlockingQueue<ChangeEvent> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
        private final CancellationTally cancellations;
        private final Thread thread;

        QueueWatcher(final LatencyRecorder deliveries, final CancellationTally cancellations, final int index)
        {
            this.cancellations = cancellations;
            this.thread = new Thread(() -> drain(deliveries), "juc-watcher-" + index);
            thread.setDaemon(true);
        }

        @Override
        public boolean offer(final ChangeEvent event)
        {
            if (queue.offer(event))
            {
                return true;
            }
            cancellations.add("OVERFLOWED");
            thread.interrupt();
            return false;
        }

        private void drain(final LatencyRecorder deliveries)
        {
            final ThreadLatency latency = deliveries.forCurrentThread();
            try
            {
                while (true)
                {
                    final ChangeEvent event = queue.take();
                    latency.record(ValueCodec.intendedNanos(event.value()), System.nanoTime());
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
