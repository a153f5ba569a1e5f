package io.ringwatch.jmh.engine;

import io.ringwatch.engine.direct.DirectWriter;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One producer thread of the {@link WriteEngineState} engine: its own {@link DirectWriter}, key
 * cursor and {@link AckWindow}, so it sends puts without waiting for each one and with a bounded number
 * not yet acknowledged or not yet received by the watcher. Used only by its JMH worker thread;
 * {@link #put()} allocates nothing.
 */
@State(Scope.Thread)
public class WriteProducer
{
    /** DRAIN: wait for every put each {@value AckWindow#WINDOW} puts; SLIDING: keep at most {@link #window} outstanding. */
    @Param({"DRAIN", "SLIDING"})
    public Pacing pacing;

    /**
     * SLIDING only: the most puts outstanding (not yet received by the watcher, or without one not yet
     * acknowledged); a power of two. Half the engine's default watcher queue depth (1024) by default: a
     * window as deep as that queue lets the watcher overflow it, leave the routes, catch up and rejoin
     * with a fresh queue, which allocates.
     */
    @Param({"512"})
    public int window;

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
    public void start(final WriteEngineState engine)
    {
        writer = engine.newWriter();
        acks = engine.registerProducer(pacing, pacing == Pacing.DRAIN ? AckWindow.WINDOW : window);
    }

    /**
     * Sends the next key without waiting for it, then waits as {@link #pacing} says. Producer thread;
     * allocates nothing.
     */
    void put()
    {
        final int position = keys.next();
        writer.putAsync(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
            keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES, acks);
        acks.sent();
    }
}
