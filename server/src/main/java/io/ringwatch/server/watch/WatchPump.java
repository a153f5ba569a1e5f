package io.ringwatch.server.watch;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.engine.watch.ReadyQueue;
import io.ringwatch.server.admission.WriteAdmission;
import io.ringwatch.server.admission.WriteGate;
import org.agrona.concurrent.Agent;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One agent that moves events from the engine's pull watchers to the clients of its streams (the
 * server runs {@link WatchPumps}, each stream on one pump for its whole life, so its order is one
 * thread's): each duty cycle
 * pumps the {@link WatchStream}s that are marked ready in the pump's {@link ReadyQueue} (the engine
 * marked one of their watches, or gRPC said the stream takes responses again), and of those only
 * the marked watches, so a cycle costs what has something to send, not how many watches there are;
 * between cycles that find nothing it parks until a stream is marked (the queue rings the pump's
 * doorbell). The engine's dispatchers only mark entries (each stream's watches are a queue inside
 * the pump's, {@link ReadyQueue#inside}): they never run the server's code. A stream never costs a
 * thread, and a stream that does not read keeps its watches
 * marked, so that further hand-overs cost the dispatcher a read and the pump nothing. There is
 * no periodic sweep of every watch: every hand-over marks its watch (events, progress, the end, a
 * revision completed in a later dispatch cycle, a catch-up poll stopped at its read bound), so an
 * idle watch costs the pump nothing. The pump builds each event's etcd message once for all its
 * watches ({@link EventProtoCache}). The set of streams is copied on change (rare) and read without
 * a lock by the admission; a cycle allocates nothing itself (the responses it sends do; the list of
 * active streams grows to the most streams ever ready).
 * With write admission, the pump also measures its streams' backlog every
 * {@link #ADMISSION_INTERVAL_NANOS}, on every cycle that found nothing to send while writes
 * are held, and (beside other pumps) on the first such cycle while its last measurement found a
 * stream behind, so that it never parks on a measurement that would let them through. A measurement
 * reads only the streams behind: those a pass left with ready watches (its client reads slower
 * than they fill, or not at all), and of those only the ready watches; every other live watch has
 * been handed everything it was given, so it is in step with the engine's revision. A
 * measurement therefore costs what is behind, not the number of watches. It is skipped while
 * nothing can have changed it (no new revision, no backlog, no write held or passing). Its result
 * is the pump's share ({@link AdmissionShares}): the admission takes the least over every pump's.
 */
final class WatchPump implements Agent
{
    /** How often the pump measures the backlog for write admission, at most. */
    static final long ADMISSION_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final WatchStream[] NONE = new WatchStream[0];

    private final String roleName;
    private final AdmissionShares shares;
    private final int index;
    private final EngineStats engine;
    private final WriteAdmission admission;
    private final ReadyQueue<WatchStream> readyStreams;
    private final EventProtoCache protos = new EventProtoCache();
    /** The marked streams the pump took, oldest first; pump thread only. */
    private final ArrayDeque<ReadyQueue.Entry<WatchStream>> active = new ArrayDeque<>();
    private volatile WatchStream[] streams = NONE;
    /** The streams a pass left with ready watches, measured by the admission; pump thread only. */
    private final ArrayList<WatchStream> behind = new ArrayList<>();
    private long lastAdmission;
    /** The engine's revision at the last measurement, -1 before any. */
    private long lastAdmissionRevision = -1;
    /** Whether the last measurement published a reading watch behind to other pumps (a share that may go stale). */
    private boolean sharedBehind;
    /** Whether the pump measured since its last cycle that did work. */
    private boolean measuredIdle;

    /**
     * @param roleName   names the pump's thread.
     * @param shares     what the server's pumps share; this pump publishes in slot {@code index}.
     * @param index      this pump's slot, below {@link AdmissionShares#pumps()}.
     * @param doorbell   the doorbell the pump's thread parks on.
     */
    WatchPump(final String roleName, final AdmissionShares shares, final int index, final Doorbell doorbell)
    {
        this.roleName = roleName;
        this.shares = shares;
        this.index = index;
        this.engine = shares.engine();
        this.admission = shares.admission();
        this.readyStreams = ReadyQueue.wakingWith(doorbell);
        lastAdmission = System.nanoTime();
    }

    /**
     * @return the event messages this pump built lately, for its streams' watches; pump thread only.
     */
    EventProtoCache protos()
    {
        return protos;
    }

    /**
     * Makes {@code stream}'s entry in the pump's ready queue: marking it (or an entry of the queue
     * inside it) wakes the pump. Any thread; allocates the entry.
     *
     * @param stream a new stream.
     * @return its entry, unmarked.
     */
    ReadyQueue.Entry<WatchStream> readyEntry(final WatchStream stream)
    {
        return readyStreams.entry(stream);
    }

    /**
     * gRPC says {@code stream} takes responses again: marks it ready after the fence that orders
     * gRPC's readiness before the mark. gRPC's thread; no lock, no allocation.
     *
     * @param stream the stream that became ready.
     */
    void transportReady(final WatchStream stream)
    {
        VarHandle.fullFence();
        stream.markReady();
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
     * A pass left {@code stream} with ready watches: the admission measures it until it has none.
     * Without admission nothing measures or drops streams, so none is listed. Pump thread (inside
     * {@link WatchStream#pump}); the stream lists itself once.
     *
     * @param stream a stream behind.
     */
    void listBehind(final WatchStream stream)
    {
        if (admission != null)
        {
            behind.add(stream);
        }
    }

    /**
     * @return how many streams the admission measures as behind (pump thread, or a test with the
     *         pump stopped).
     */
    int streamsBehind()
    {
        return behind.size();
    }

    /**
     * A stream's live watches changed (created, cancelled, ended, the stream closed). Any thread,
     * under the stream's lock; allocates nothing.
     *
     * @param delta the change.
     */
    void watchesLive(final int delta)
    {
        shares.watchesLive(delta);
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
        for (ReadyQueue.Entry<WatchStream> entry = readyStreams.poll(); entry != null; entry = readyStreams.poll())
        {
            active.addLast(entry);
        }
        int work = 0;
        for (int n = active.size(); n > 0; n--)
        {
            final ReadyQueue.Entry<WatchStream> entry = active.pollFirst();
            final WatchStream stream = entry.attachment();
            work += stream.pump(now);
            // Unmarked before the stream is asked (a full fence): a watch marked or an on-ready
            // after the answer marks it again, and one before it is in the answer.
            entry.unmark();
            if (stream.wantsPump() && entry.remark())
            {
                active.addLast(entry);
            }
        }
        if (!active.isEmpty())
        {
            // More to send: not a cycle to idle after.
            work++;
        }
        if (work > 0)
        {
            measuredIdle = false;
        }
        // Also before the pump idles while writes are held (they may wait on this very measurement),
        // and once when it starts to idle while its share holds a position, which would go stale
        // while it sleeps (nothing it does while idle moves it; a wake-up past the interval measures).
        if (admission != null && (now - lastAdmission >= ADMISSION_INTERVAL_NANOS
            || (work == 0 && ((sharedBehind && !measuredIdle) || admission.gate().heldNow() > 0))))
        {
            lastAdmission = now;
            measuredIdle = work == 0;
            measure(now);
        }
        return work;
    }

    /**
     * Measures the backlog for the admission, unless nothing can have changed it since the last
     * measurement: no new revision, no backlog then (positions only grow, so it is still none),
     * and no write held or passing. A measurement reads the positions of the ready watches of the
     * streams behind, dropping the streams no longer behind, and publishes the lowest as this
     * pump's share.
     */
    private void measure(final long now)
    {
        final long revision = engine.currentRevision();
        final WriteGate gate = admission.gate();
        if (revision == lastAdmissionRevision && admission.backlog() == 0 && gate.heldNow() == 0 && gate.passing() == 0)
        {
            return;
        }
        lastAdmissionRevision = revision;
        for (int i = behind.size() - 1; i >= 0; i--)
        {
            if (!behind.get(i).stillBehind())
            {
                final int last = behind.size() - 1;
                behind.set(i, behind.get(last));
                behind.remove(last);
            }
        }
        final long lowest = admission.lowestReading(behind, now);
        // Alone, the pump's measurement is the admission's, and it re-measures when writes are held
        // as the single pump always did; beside others, its stale share would hold their writes.
        sharedBehind = lowest != Long.MAX_VALUE && shares.pumps() > 1;
        shares.publish(index, lowest, now);
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
