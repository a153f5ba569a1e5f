package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.server.admission.WriteAdmission;
import org.agrona.concurrent.Agent;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The agent that moves events from the engine's pull watchers to the clients: each duty cycle
 * pumps every open {@link WatchStream} once, skipping those whose client is not reading; between
 * cycles that find nothing it parks until a watcher or a stream rings ({@link WatchService}). One
 * thread for all streams, so a stream never costs a thread, and a stream that does not read costs
 * one {@code isReady} check per cycle. The set of streams is copied on change (rare) and read
 * without a lock on every cycle; a cycle allocates nothing itself (the responses it sends do).
 * With write admission, the pump also measures the streams' backlog for it every
 * {@link #ADMISSION_INTERVAL_NANOS} (it visits every watch, so not on every busy cycle), and on
 * every cycle that found nothing to send while writes are held, so that it never parks on a
 * measurement that would let them through.
 */
final class WatchPump implements Agent
{
    /** How often the pump measures the backlog for write admission, at most. */
    static final long ADMISSION_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final WatchStream[] NONE = new WatchStream[0];

    private final String roleName;
    private final EngineStats engine;
    private final WriteAdmission admission;
    private volatile WatchStream[] streams = NONE;
    private long lastAdmission;

    /**
     * @param roleName  names the pump's thread.
     * @param engine    the engine whose revisions and window the backlog is measured against.
     * @param admission the write admission to drive, or null without one.
     */
    WatchPump(final String roleName, final RingWatch engine, final WriteAdmission admission)
    {
        this.roleName = roleName;
        this.engine = engine.stats();
        this.admission = admission;
        lastAdmission = System.nanoTime();
    }

    synchronized void add(final WatchStream stream)
    {
        final WatchStream[] current = streams;
        final WatchStream[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = stream;
        streams = next;
    }

    synchronized void remove(final WatchStream stream)
    {
        final WatchStream[] current = streams;
        for (int i = 0; i < current.length; i++)
        {
            if (current[i] == stream)
            {
                final WatchStream[] next = new WatchStream[current.length - 1];
                System.arraycopy(current, 0, next, 0, i);
                System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                streams = next;
                return;
            }
        }
    }

    /**
     * @return how many streams are open.
     */
    int streamCount()
    {
        return streams.length;
    }

    @Override
    public int doWork()
    {
        final long now = System.nanoTime();
        final WatchStream[] current = streams;
        int work = 0;
        for (final WatchStream stream : current)
        {
            work += stream.pump(now);
        }
        // Also before the pump idles while writes are held: they may wait on this very measurement.
        if (admission != null && (now - lastAdmission >= ADMISSION_INTERVAL_NANOS || (work == 0 && admission.gate().heldNow() > 0)))
        {
            lastAdmission = now;
            final long revision = engine.currentRevision();
            admission.evaluate(current, now, revision,
                WriteAdmission.windowRevisions(revision, engine.windowOldestRevision(), engine.windowSize(), engine.windowCapacity()));
        }
        return work;
    }

    @Override
    public void onClose()
    {
        for (final WatchStream stream : streams)
        {
            stream.shutdown();
        }
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
