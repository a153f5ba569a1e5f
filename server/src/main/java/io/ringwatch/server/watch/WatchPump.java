package io.ringwatch.server.watch;

import org.agrona.concurrent.Agent;

import java.util.Arrays;

/**
 * The agent that moves events from the engine's pull watchers to the clients: each duty cycle
 * pumps every open {@link WatchStream} once, skipping those whose client is not reading; between
 * cycles that find nothing it parks until a watcher or a stream rings ({@link WatchService}). One
 * thread for all streams, so a stream never costs a thread, and a stream that does not read costs
 * one {@code isReady} check per cycle. The set of streams is copied on change (rare) and read
 * without a lock on every cycle; a cycle allocates nothing itself (the responses it sends do).
 */
final class WatchPump implements Agent
{
    private static final WatchStream[] NONE = new WatchStream[0];

    private final String roleName;
    private volatile WatchStream[] streams = NONE;

    WatchPump(final String roleName)
    {
        this.roleName = roleName;
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
        int work = 0;
        for (final WatchStream stream : streams)
        {
            work += stream.pump();
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
