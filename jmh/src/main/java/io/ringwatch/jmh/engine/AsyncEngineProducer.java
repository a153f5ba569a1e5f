package io.ringwatch.jmh.engine;

import io.ringwatch.engine.write.DirectWriter;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One producer thread of the {@link SharedEngineState} engine: its own {@link DirectWriter}, key
 * cursor and {@link AckWindow}, so it sends puts without waiting for each one and with at most
 * {@value AckWindow#WINDOW} not yet acknowledged or not yet received by the watcher. Set up once per
 * trial; used only by its JMH worker thread; {@link #put()} allocates nothing.
 */
@State(Scope.Thread)
public class AsyncEngineProducer
{
    private final WriteKeys keys = new WriteKeys();
    private DirectWriter writer;
    private AckWindow acks;

    /**
     * Takes a writer and a window from the shared engine. The producer's worker thread, once per
     * trial; allocates both.
     *
     * @param engine the engine, already open (JMH sets up a state's dependencies first).
     */
    @Setup(Level.Trial)
    public void start(final SharedEngineState engine)
    {
        writer = engine.newWriter();
        acks = engine.registerProducer();
    }

    /**
     * Sends the next key without waiting, then, every {@value AckWindow#WINDOW} puts, waits until the
     * writer acknowledged them all and the watcher received them. Producer thread; allocates nothing.
     */
    void put()
    {
        final int position = keys.next();
        writer.putAsync(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
            keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES, acks);
        acks.sent();
    }
}
