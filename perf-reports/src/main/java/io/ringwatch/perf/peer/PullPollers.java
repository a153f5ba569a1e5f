package io.ringwatch.perf.peer;

import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Harness threads ("perf-poller-i") that drain RingWatch pull watchers: each owns every
 * {@code pollers}-th watcher and polls them in turn, idling when none had anything. Started and
 * stopped from the main thread; polling allocates nothing.
 */
final class PullPollers
{
    private static final int MAX_EVENTS_PER_POLL = 256;

    private final List<List<PullWatcher>> shares = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final WatchListener listener;
    private final Supplier<IdleStrategy> idle;
    private volatile boolean running = true;

    PullPollers(final int pollers, final WatchListener listener, final Supplier<IdleStrategy> idle)
    {
        for (int i = 0; i < pollers; i++)
        {
            shares.add(new ArrayList<>());
        }
        this.listener = listener;
        this.idle = idle;
    }

    void add(final PullWatcher watcher, final int index)
    {
        shares.get(index % shares.size()).add(watcher);
    }

    void start()
    {
        for (int i = 0; i < shares.size(); i++)
        {
            final PullWatcher[] mine = shares.get(i).toArray(new PullWatcher[0]);
            if (mine.length == 0)
            {
                continue;
            }
            final Thread thread = new Thread(() -> poll(mine), "perf-poller-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    void stop()
    {
        running = false;
        for (final Thread thread : threads)
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void poll(final PullWatcher[] watchers)
    {
        final IdleStrategy idleStrategy = idle.get();
        while (running)
        {
            int work = 0;
            for (final PullWatcher watcher : watchers)
            {
                work += watcher.poll(listener, MAX_EVENTS_PER_POLL);
            }
            idleStrategy.idle(work);
        }
    }
}
