package io.ringwatch.jmh.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;

/**
 * The {@link LockedBroadcastStore} baseline with every key of {@link WriteKeys} already written, so
 * the measured puts are updates, as in {@link EngineState}. One per producer thread; started and
 * stopped once per trial on the JMH worker thread. Tear-down fails the trial if the drainer did not
 * receive every event.
 */
@State(Scope.Thread)
public class LockedMapState
{
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

    LockedBroadcastStore store;
    WriteKeys keys;

    /**
     * Starts the store and writes every key once. JMH worker thread, once per trial; allocates the
     * store and the key set.
     *
     * @throws InterruptedException if interrupted while writing.
     */
    @Setup(Level.Trial)
    public void start() throws InterruptedException
    {
        store = new LockedBroadcastStore();
        keys = new WriteKeys();
        for (int i = 0; i < WriteKeys.KEY_COUNT; i++)
        {
            store.put(keys.key(keys.next()), keys.value());
        }
    }

    /**
     * Checks that the drainer took every event, then stops it (also when the check fails). JMH
     * worker thread, once per trial.
     *
     * @throws InterruptedException  if interrupted while waiting.
     * @throws IllegalStateException when events were not drained in time.
     */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException
    {
        try
        {
            store.awaitDrained(DRAIN_TIMEOUT);
        }
        finally
        {
            store.close();
        }
    }
}
