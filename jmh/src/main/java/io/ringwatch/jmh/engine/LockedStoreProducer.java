package io.ringwatch.jmh.engine;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One producer thread of the {@link SharedLockedStoreState} store: its own key cursor. Set up once per
 * trial; used only by its JMH worker thread; {@link #put()} allocates what
 * {@link LockedBroadcastStore#put} does.
 */
@State(Scope.Thread)
public class LockedStoreProducer
{
    private final WriteKeys keys = new WriteKeys();
    private LockedBroadcastStore store;

    /**
     * Takes the shared store. The producer's worker thread, once per trial.
     *
     * @param shared the store, already started (JMH sets up a state's dependencies first).
     */
    @Setup(Level.Trial)
    public void start(final SharedLockedStoreState shared)
    {
        store = shared.store;
    }

    /**
     * Puts the next key; returns once it is stored and its event queued for the watcher. Producer
     * thread.
     *
     * @return the put's revision.
     * @throws InterruptedException if interrupted while the watcher's queue is full.
     */
    long put() throws InterruptedException
    {
        return store.put(keys.key(keys.next()), keys.value());
    }
}
