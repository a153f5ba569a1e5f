package io.ringwatch.jmh.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;


/**
 * The java.util.concurrent baseline shared by every producer thread of a trial: one
 * {@link LockedBroadcastStore} (a lock-guarded {@code HashMap} and revision counter whose put queues
 * an event on one {@code LinkedBlockingQueue} per watcher; here one watcher, drained by its own
 * thread) with every key of {@link WriteKeys} already written, as in {@link WriteEngineState}. Each
 * {@link LockedStoreProducer} calls its put concurrently.
 * <p>
 * Started and stopped once per trial by one JMH worker thread; the tear-down runs once every producer
 * has stopped and fails the trial unless the watcher drained the event of every put.
 */
@State(Scope.Benchmark)
public class SharedLockedStoreState
{
    LockedBroadcastStore store;

    /**
     * Starts the store and writes every key once. One JMH worker thread, once per trial; allocates
     * the store and the key set.
     *
     * @throws InterruptedException if interrupted while writing.
     */
    @Setup(Level.Trial)
    public void start() throws InterruptedException
    {
        store = LockedBroadcastStore.withEveryKey(new WriteKeys());
    }

    /**
     * Checks that the watcher drained every put, then stops its thread (also when the check fails).
     * One JMH worker thread, once per trial, after every producer has stopped.
     *
     * @throws InterruptedException  if interrupted while stopping the watcher's thread.
     * @throws IllegalStateException when events were not drained in time.
     */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException
    {
        store.closeWhenDrained();
    }
}
