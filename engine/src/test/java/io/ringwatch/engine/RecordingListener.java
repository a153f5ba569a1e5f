package io.ringwatch.engine;

import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchListener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A push listener for tests: keeps copies of everything it is told and lets a test wait for a
 * condition. The waits are a safety net against hangs, never a measure of speed.
 */
final class RecordingListener implements WatchListener
{
    static final Duration PATIENCE = Duration.ofSeconds(20);

    private final List<Event> events = new ArrayList<>();
    private final List<Long> progress = new ArrayList<>();
    private final List<String> threads = new ArrayList<>();
    private WatchCancellation cancellation;
    private int cancellations;

    @Override
    public synchronized void onEvents(final EventBatch batch)
    {
        threads.add(Thread.currentThread().getName());
        for (int i = 0; i < batch.size(); i++)
        {
            events.add(batch.get(i).toEvent());
        }
        notifyAll();
    }

    @Override
    public synchronized void onProgress(final long revision)
    {
        progress.add(revision);
        notifyAll();
    }

    @Override
    public synchronized void onCancelled(final WatchCancellation cancellation)
    {
        this.cancellation = cancellation;
        cancellations++;
        notifyAll();
    }

    synchronized List<Event> events()
    {
        return new ArrayList<>(events);
    }

    synchronized List<Long> progress()
    {
        return new ArrayList<>(progress);
    }

    synchronized List<String> threads()
    {
        return new ArrayList<>(threads);
    }

    synchronized WatchCancellation cancellation()
    {
        return cancellation;
    }

    synchronized int cancellations()
    {
        return cancellations;
    }

    List<Event> awaitEvents(final int count)
    {
        await(() -> eventCount() >= count, "at least " + count + " events");
        return events();
    }

    WatchCancellation awaitCancellation()
    {
        await(() -> cancellation() != null, "a cancellation");
        return cancellation();
    }

    long awaitProgressAtLeast(final long revision)
    {
        await(() -> progress().stream().anyMatch(r -> r >= revision), "progress >= " + revision);
        return progress().stream().mapToLong(Long::longValue).max().orElseThrow();
    }

    private synchronized int eventCount()
    {
        return events.size();
    }

    /**
     * @return each event's value, as text, in order.
     */
    static List<String> values(final List<Event> events)
    {
        final List<String> values = new ArrayList<>();
        for (final Event event : events)
        {
            values.add(new String(event.kv().value()));
        }
        return values;
    }

    static void await(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out waiting for " + what);
            }
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }
}
