package io.ringwatch.jmh.fanout;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A JMH auxiliary counter: the events delivered to watchers during each iteration, which JMH reports
 * per second beside the writes per second (as the secondary result {@code deliveredEvents}). The
 * benchmark thread feeds it the tally it reads anyway when admitting a write, so counting costs two field
 * writes per operation and allocates nothing.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class DeliveredEvents
{
    /** Events delivered since the first write of this iteration; read by JMH, not meant for callers. */
    public long deliveredEvents;

    private long atIterationStart = -1;

    /**
     * Starts a new iteration's count. JMH worker thread, before each iteration; allocates nothing.
     */
    @Setup(Level.Iteration)
    public void reset()
    {
        deliveredEvents = 0;
        atIterationStart = -1;
    }

    /**
     * Records the delivery tally seen by the latest write. Benchmark thread; allocates nothing.
     *
     * @param tally the deliveries counted so far, all watchers together.
     */
    void observe(final long tally)
    {
        if (atIterationStart < 0)
        {
            atIterationStart = tally;
        }
        deliveredEvents = tally - atIterationStart;
    }
}
