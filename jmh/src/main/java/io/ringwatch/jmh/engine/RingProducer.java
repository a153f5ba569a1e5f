package io.ringwatch.jmh.engine;

import com.lmax.disruptor.RingBuffer;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One producer thread of the {@link SharedRingState} ring: its own key cursor and a count of what it
 * published. Set up once per trial; {@link #publish()} is called only by its JMH worker thread and
 * allocates nothing; the tear-down reads the count after the producer has stopped (JMH runs it after
 * every worker's last call).
 */
@State(Scope.Thread)
public class RingProducer
{
    private final WriteKeys keys = new WriteKeys();
    private RingBuffer<PayloadSlot> ring;
    private long published;

    /**
     * Joins the shared ring. The producer's worker thread, once per trial.
     *
     * @param shared the ring, already started (JMH sets up a state's dependencies first).
     */
    @Setup(Level.Trial)
    public void start(final SharedRingState shared)
    {
        ring = shared.register(this);
    }

    /**
     * Claims the next slot (waiting only while the ring is full), copies the next key and the value
     * into it and publishes it, without waiting for the handler. Producer thread; allocates nothing.
     *
     * @return the slot's sequence.
     */
    long publish()
    {
        final int position = keys.next();
        final long sequence = ring.next();
        try
        {
            ring.get(sequence).fill(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
                keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES);
        }
        finally
        {
            ring.publish(sequence);
        }
        published++;
        return sequence;
    }

    /**
     * @return the slots published. After the producer stopped.
     */
    long published()
    {
        return published;
    }

    /**
     * What the handler must have summed for this producer's slots: {@link PayloadSlot#fold} of each
     * put published, recomputed from the key order. After the producer stopped; allocates nothing.
     *
     * @return the sum over {@link #published()} puts.
     */
    long expectedFold()
    {
        // The cursor visits every key in turn from position 0: whole cycles of the key set, then a prefix.
        final long cycles = published / WriteKeys.KEY_COUNT;
        final int prefix = (int)(published % WriteKeys.KEY_COUNT);
        long cycleFold = 0;
        long prefixFold = 0;
        for (int position = 0; position < WriteKeys.KEY_COUNT; position++)
        {
            if (position == prefix)
            {
                prefixFold = cycleFold;
            }
            cycleFold += PayloadSlot.fold(keys.keyBuffer(), WriteKeys.keyOffset(position), WriteKeys.KEY_BYTES,
                keys.valueBuffer(), 0, WriteKeys.VALUE_BYTES);
        }
        return cycles * cycleFold + prefixFold;
    }
}
