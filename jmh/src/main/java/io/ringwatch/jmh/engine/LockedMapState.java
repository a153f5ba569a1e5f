package io.ringwatch.jmh.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;


/**
 * The {@link LockedBroadcastStore} baseline with every key of {@link WriteKeys} already written, so
 * the measured puts are updates, as in {@link EngineState}. One per producer thread; started and
 * stopped once per trial on the JMH worker thread. Tear-down fails the trial if the drainer did not
 * receive every event.
 */
@State(Scope.Thread)
public class LockedMapState
{
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
        keys = new WriteKeys();
        store = LockedBroadcastStore.withEveryKey(keys);
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
        store.closeWhenDrained();
    }
}
