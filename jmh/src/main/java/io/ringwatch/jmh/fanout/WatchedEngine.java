package io.ringwatch.jmh.fanout;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;

import java.util.concurrent.locks.LockSupport;

/**
 * A running engine with every key of {@link FanOutWorkload} already written (so the measured puts are
 * updates, the steady state), {@code matchingWatchers} push watchers of the written prefix and
 * {@code nonMatchingWatchers} push watchers of single keys that are never written, each with a counting
 * {@link TallyListener}. {@link #put()} writes the next key asynchronously through a {@link DirectWriter},
 * behind an {@link InFlightGate} on the matching watchers' deliveries, so the writes per second it allows
 * are writes delivered end to end (writer, window, dispatcher, delivery thread, listener).
 * <p>
 * The producer (JMH worker) thread alone uses an instance. Construction allocates the engine, the key set
 * and the watchers; {@link #put()} allocates nothing on this side.
 */
final class WatchedEngine implements AutoCloseable
{
    private static final long REGISTRATION_TIMEOUT_NANOS = 60_000_000_000L;
    private static final long REGISTRATION_POLL_NANOS = 1_000_000;

    private final RingWatch engine;
    private final DirectWriter writer;
    private final FanOutWorkload workload = new FanOutWorkload();
    private final AsyncFailures failures = new AsyncFailures();
    private final DeliveryTally matchingTally = new DeliveryTally();
    private final DeliveryTally idleTally = new DeliveryTally();
    private final TallyListener[] matching;
    private final TallyListener[] idle;
    private final InFlightGate gate;
    private final long firstWatchedRevision;

    /**
     * Opens the engine, writes every key once, registers the watchers and waits until the dispatchers
     * hold them all. JMH worker thread; allocates everything.
     *
     * @param config              the engine's configuration.
     * @param matchingWatchers    watchers of every written key; at least 1.
     * @param nonMatchingWatchers watchers of keys never written; not negative.
     * @throws IllegalArgumentException for a bad watcher count.
     */
    WatchedEngine(final RingWatchConfig config, final int matchingWatchers, final int nonMatchingWatchers)
    {
        if (matchingWatchers < 1 || nonMatchingWatchers < 0)
        {
            throw new IllegalArgumentException("need at least one matching and no negative count of other watchers: " +
                matchingWatchers + ", " + nonMatchingWatchers);
        }
        gate = new InFlightGate(matchingTally, matchingWatchers);
        matching = new TallyListener[matchingWatchers];
        idle = new TallyListener[nonMatchingWatchers];
        engine = RingWatch.open(config);
        try
        {
            writer = engine.newDirectWriter();
            writeEveryKey();
            firstWatchedRevision = engine.currentRevision() + 1;
            final WatchRequest written = WatchRequest.of(KeyRange.prefix(FanOutWorkload.writtenPrefix()))
                .startRevision(firstWatchedRevision);
            for (int i = 0; i < matchingWatchers; i++)
            {
                matching[i] = new TallyListener(matchingTally);
                engine.watch(written, matching[i]);
            }
            for (int i = 0; i < nonMatchingWatchers; i++)
            {
                idle[i] = new TallyListener(idleTally);
                engine.watch(WatchRequest.of(KeyRange.key(FanOutWorkload.numberedKey(FanOutWorkload.IDLE_PREFIX, i))), idle[i]);
            }
            awaitWatchers(matchingWatchers + nonMatchingWatchers);
        }
        catch (final RuntimeException e)
        {
            engine.close();
            throw e;
        }
    }

    /**
     * @return the engine, for watchers a benchmark adds itself.
     */
    RingWatch engine()
    {
        return engine;
    }

    /**
     * Waits until the dispatchers hold {@code count} watchers, so registration does not spill into the
     * measurement. JMH worker thread; allocates nothing.
     *
     * @param count the watchers expected.
     * @throws IllegalStateException if they are not all registered within a minute (a safety net).
     */
    void awaitWatchers(final int count)
    {
        final long deadline = System.nanoTime() + REGISTRATION_TIMEOUT_NANOS;
        while (engine.watcherCount() < count)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("only " + engine.watcherCount() + " of " + count + " watchers registered");
            }
            LockSupport.parkNanos(REGISTRATION_POLL_NANOS);
        }
    }

    /**
     * Waits for room under the in-flight limit, then puts the next key without waiting for it.
     * Producer thread; allocates nothing.
     *
     * @return the deliveries to the matching watchers counted before this put.
     */
    long put()
    {
        final long delivered = gate.admit();
        final int position = workload.next();
        writer.putAsync(workload.keyBuffer(), FanOutWorkload.keyOffset(position), FanOutWorkload.KEY_BYTES,
            workload.valueBuffer(), 0, FanOutWorkload.VALUE_BYTES, failures);
        return delivered;
    }

    /**
     * Waits until every put was delivered, then checks that each matching watcher received exactly one
     * event per put and is still running, and that no other watcher received anything. Producer thread.
     *
     * @throws IllegalStateException naming the first thing that is wrong.
     */
    void verifyDelivered()
    {
        failures.check();
        gate.awaitAllDelivered();
        final long expected = engine.currentRevision() - firstWatchedRevision + 1;
        if (expected != gate.admitted())
        {
            throw new IllegalStateException(gate.admitted() + " puts made " + expected + " revisions");
        }
        for (int i = 0; i < matching.length; i++)
        {
            if (matching[i].delivered() != expected || matching[i].cancellation() != null)
            {
                throw new IllegalStateException("matching watcher " + i + " received " + matching[i].delivered() +
                    " of " + expected + " events; cancellation: " + matching[i].cancellation());
            }
        }
        for (int i = 0; i < idle.length; i++)
        {
            if (idle[i].delivered() != 0 || idle[i].cancellation() != null)
            {
                throw new IllegalStateException("non-matching watcher " + i + " received " + idle[i].delivered() +
                    " events; cancellation: " + idle[i].cancellation());
            }
        }
    }

    /**
     * Closes the engine. Any thread.
     */
    @Override
    public void close()
    {
        engine.close();
    }

    private void writeEveryKey()
    {
        // Asynchronous puts keep set-up short; the blocking put of the last key returns only after the
        // single writer has applied every earlier one.
        for (int i = 0; i < FanOutWorkload.KEY_COUNT - 1; i++)
        {
            final int position = workload.next();
            writer.putAsync(workload.keyBuffer(), FanOutWorkload.keyOffset(position), FanOutWorkload.KEY_BYTES,
                workload.valueBuffer(), 0, FanOutWorkload.VALUE_BYTES, failures);
        }
        final int last = workload.next();
        writer.put(workload.keyBuffer(), FanOutWorkload.keyOffset(last), FanOutWorkload.KEY_BYTES,
            workload.valueBuffer(), 0, FanOutWorkload.VALUE_BYTES);
        failures.check();
    }
}
