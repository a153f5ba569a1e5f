package io.ringwatch.jmh.persistence;

import io.ringwatch.engine.write.DirectWriter;
import io.ringwatch.jmh.engine.AckWindow;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One producer thread of the shared {@link PersistentEngineState}: its own {@link DirectWriter}, key
 * cursor and {@link AckWindow} (re-created each iteration, since each iteration has a fresh engine).
 * Used only by its JMH worker thread; {@link #put()} allocates nothing.
 */
@State(Scope.Thread)
public class EngineProducer
{
    private final LogWorkload workload = new LogWorkload();
    private DirectWriter writer;
    private AckWindow acks;

    /**
     * Takes a writer and a window from this iteration's engine. The producer's worker thread, before
     * each iteration; allocates both.
     *
     * @param shared the engine, already open (JMH sets up a state's dependencies first).
     */
    @Setup(Level.Iteration)
    public void start(final PersistentEngineState shared)
    {
        writer = shared.engine.newDirectWriter();
        acks = shared.registerProducer();
    }

    /**
     * Sends the next key without waiting, then, every {@value AckWindow#WINDOW} puts, waits for all of
     * them. Producer thread; allocates nothing.
     */
    void put()
    {
        final int position = workload.next();
        writer.putAsync(workload.keys(), LogWorkload.keyOffset(position), LogWorkload.KEY_BYTES,
            workload.value(), 0, LogWorkload.VALUE_BYTES, acks);
        acks.sent();
    }
}
