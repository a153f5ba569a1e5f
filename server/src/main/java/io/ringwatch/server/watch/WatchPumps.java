package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.server.admission.WriteAdmission;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's watch pumps: N {@link WatchPump} agents, each on its own thread
 * ({@code <name>-watch-pump}, then {@code <name>-watch-pump-1}, {@code -2}... past the first),
 * each parked on its own doorbell. A stream is given to one pump when it opens, in turn, and stays
 * there, so one stream's responses are one thread's, in order, and pumps share nothing on the
 * path of an event (each has its own ready queue, streams and {@link EventProtoCache}); they share
 * only the count of live watches and, with write admission, their shares of the backlog
 * ({@link AdmissionShares}), published at most once a millisecond each. One pump per stream means
 * that N pumps spread the work of N or more streams, not the watches of one stream.
 *
 * <p>Thread-safe; allocates per pump at start and nothing per stream but its entry.
 */
final class WatchPumps implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(WatchPumps.class);

    private final WatchPump[] pumps;
    private final AgentRunner[] runners;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * Starts the pumps' threads.
     *
     * @param engine       the engine whose watchers the streams use.
     * @param name         the server's name, which names the threads.
     * @param admission    the write admission the pumps drive, or null for none.
     * @param count        how many pumps, at least 1.
     * @param maxParkNanos the longest a pump parks when nothing rings it.
     * @throws IllegalArgumentException if {@code count} is below 1.
     */
    WatchPumps(final RingWatch engine, final String name, final WriteAdmission admission, final int count, final long maxParkNanos)
    {
        final AdmissionShares shares = new AdmissionShares(engine.stats(), admission, count);
        pumps = new WatchPump[count];
        runners = new AgentRunner[count];
        for (int i = 0; i < count; i++)
        {
            final WakeableIdleStrategy idle = new WakeableIdleStrategy(WakeableIdleStrategy.DEFAULT_SPINS, 0, maxParkNanos);
            pumps[i] = new WatchPump(name + "-watch-pump" + (i == 0 ? "" : "-" + i), shares, i, idle.doorbell());
            runners[i] = new AgentRunner(idle, error -> LOG.error("watch pump failed", error), null, pumps[i]);
        }
        for (final AgentRunner runner : runners)
        {
            AgentRunner.startOnThread(runner);
        }
    }

    /**
     * The pump a new stream is to live on: the next in turn. Any thread.
     *
     * @return a pump.
     */
    WatchPump assign()
    {
        return pumps[Math.floorMod(next.getAndIncrement(), pumps.length)];
    }

    /**
     * @return how many pumps run.
     */
    int count()
    {
        return pumps.length;
    }

    /**
     * @return how many streams are open, over every pump.
     */
    int streamCount()
    {
        int streams = 0;
        for (final WatchPump pump : pumps)
        {
            streams += pump.streamCount();
        }
        return streams;
    }

    /**
     * Ends every stream (their clients get UNAVAILABLE) and stops every pump's thread, one after the other.
     */
    @Override
    public void close()
    {
        for (final AgentRunner runner : runners)
        {
            runner.close();
        }
    }
}
