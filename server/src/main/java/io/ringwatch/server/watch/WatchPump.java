package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.server.admission.WriteAdmission;
import org.agrona.concurrent.Agent;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The agent that moves events from the engine's pull watchers to the clients: each duty cycle
 * pumps the {@link WatchStream}s that are marked ready (one of their watches was signalled, or gRPC
 * said the stream takes responses again), and of those only the watches that were signalled, so a
 * cycle costs what has something to send, not how many watches there are; between cycles that
 * find nothing it parks until a stream is marked ({@link #streamReady} rings it). One thread for
 * all streams, so a stream never costs a thread, and a stream that does not read costs one
 * {@code isReady} check per signal. Every {@code sweepNanos} a cycle marks every watch of every
 * stream, which bounds the delay of a hand-over nothing signalled. The set of streams is copied on
 * change (rare) and read without a lock by the sweep and the admission; a cycle allocates nothing
 * itself (the responses it sends do; the ready queue grows to the most streams ever ready).
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
    private final Doorbell doorbell;
    private final long sweepNanos;
    private final ReadySet<WatchStream> readyStreams = new ReadySet<>();
    /** The marked streams the pump took, oldest first; pump thread only. */
    private final ArrayDeque<WatchStream> active = new ArrayDeque<>();
    private volatile WatchStream[] streams = NONE;
    private long lastAdmission;
    private long lastSweep;

    /**
     * @param roleName   names the pump's thread.
     * @param engine     the engine whose revisions and window the backlog is measured against.
     * @param admission  the write admission to drive, or null without one.
     * @param doorbell   the doorbell the pump's thread parks on.
     * @param sweepNanos how often every watch is looked at, signalled or not.
     */
    WatchPump(final String roleName, final RingWatch engine, final WriteAdmission admission, final Doorbell doorbell,
        final long sweepNanos)
    {
        this.roleName = roleName;
        this.engine = engine.stats();
        this.admission = admission;
        this.doorbell = doorbell;
        this.sweepNanos = sweepNanos;
        lastAdmission = System.nanoTime();
        lastSweep = lastAdmission;
    }

    /**
     * Marks {@code stream} ready and wakes the pump if that added it. Any thread (the engine's
     * dispatchers through {@link WatchStream#watchSignalled}, gRPC's on-ready); takes no lock,
     * allocates nothing.
     *
     * @param stream a stream with a signalled watch, or that gRPC says takes responses again.
     */
    void streamReady(final WatchStream stream)
    {
        // Called after the watch's mark, a compare-and-set, and volatile accesses are ordered among
        // themselves; the stream's compare-and-set is then the fence the ring needs.
        if (readyStreams.mark(stream))
        {
            doorbell.ringAfterFence();
        }
    }

    /**
     * gRPC says {@code stream} takes responses again: marks it ready, as {@link #streamReady}, after
     * the fence that orders gRPC's readiness before the mark. gRPC's thread; no lock, no allocation.
     *
     * @param stream the stream that became ready.
     */
    void transportReady(final WatchStream stream)
    {
        VarHandle.fullFence();
        streamReady(stream);
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
        if (now - lastSweep >= sweepNanos)
        {
            lastSweep = now;
            for (final WatchStream stream : current)
            {
                stream.markAllReady();
                readyStreams.mark(stream);
            }
        }
        for (WatchStream stream = readyStreams.takeAll(); stream != null; )
        {
            final WatchStream after = readyStreams.next(stream);
            active.addLast(stream);
            stream = after;
        }
        int work = 0;
        for (int n = active.size(); n > 0; n--)
        {
            final WatchStream stream = active.pollFirst();
            work += stream.pump(now);
            // Unmarked before the stream is asked (a full fence): a watch signalled or an on-ready
            // after the answer marks it again, and one before it is in the answer.
            readyStreams.unmark(stream);
            if (stream.wantsPump() && readyStreams.remark(stream))
            {
                active.addLast(stream);
            }
        }
        if (!active.isEmpty())
        {
            // More to send: not a cycle to idle after.
            work++;
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
