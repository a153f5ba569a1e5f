package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.internal.secondary.IndexMatch;
import io.ringwatch.engine.internal.secondary.IndexRouteVisitor;
import io.ringwatch.engine.spi.History;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;

import java.util.ArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Finds the watchers that events a dispatcher lost to the window's lapping were for, by reading
 * those events back from the revision log and routing them, so that only those watchers leave the
 * routes to read by cursor. Without it a lap sends every routed watcher of the shard to catch up:
 * with ten thousand idle push watchers, each opening a log reader and scanning from its own last
 * event, the delivery threads had seconds of work, and a watcher that needed a turn waited behind it.
 *
 * <p>Threads: the owning dispatcher thread only, which a lap may hold up to
 * {@link #LOG_LAG_WAIT_NANOS} while the journal catches up. Allocation: a log reader per lap, closed before
 * the lap's routing returns (a reader kept between laps would keep an old log file mapped);
 * nothing per event.
 */
final class LostEventRoutes
{
    /** The most revisions one lap reads back; a dispatcher further behind laps every watcher. */
    static final long MAX_REVISIONS = 1 << 16;
    /**
     * How long a lap waits for an ASYNC journal to append the lost revisions. The lap happens in a
     * burst of writes, just when the journal may nap (200 µs to 1 ms, {@code JournalNaps}); waiting
     * two to ten naps is cheaper than sending every routed watcher to catch up.
     */
    static final long LOG_LAG_WAIT_NANOS = 2_000_000;
    private static final long LOG_POLL_NANOS = 20_000;

    private final History log;
    private final ShardRegistry registry;
    private final EventRecord record = new EventRecord();
    private final ArrayList<WatcherState> matched = new ArrayList<>();
    private final RouteVisitor<WatcherState> byKey = watcher -> collect(watcher, record.type());
    private final IndexRouteVisitor<WatcherState> byIndex = new IndexRouteVisitor<>()
    {
        @Override
        public void onMatch(final WatcherState watcher, final int mode)
        {
            collect(watcher, mode == IndexMatch.AS_DELETE ? EventType.DELETE : mode == IndexMatch.AS_ADD ? EventType.PUT : record.type());
        }

        @Override
        public void onFunctionFailed(final WatcherState watcher, final IndexFunctionException failure)
        {
            // Its own catch-up runs the function on this event again and ends the watch as it would.
            matched.add(watcher);
        }
    };
    /**
     * @param log      the revision log, or null in memory (then every lap sends every watcher to catch up).
     * @param registry the shard's routes.
     */
    LostEventRoutes(final History log, final ShardRegistry registry)
    {
        this.log = log;
        this.registry = registry;
    }

    /**
     * Reads the log's revisions {@code from} to {@code to}, past the first {@code routed} events of
     * {@code from}, and hands each routed watcher that one of their events routes to (and that wants
     * it: its range, filters and routed-from revision) to {@code fallBehind}, once routing that event
     * is done.
     *
     * @param from       the first revision that may hold a lost event.
     * @param routed     the events of {@code from} the dispatcher did route: not lost.
     * @param to         the last revision that may hold one.
     * @param fallBehind takes a watcher off the routes to read by cursor.
     * @return false when the log cannot serve the whole range (no log, compacted, not written within
     * {@link #LOG_LAG_WAIT_NANOS}, unreadable, or more than {@link #MAX_REVISIONS}): the caller must
     * treat every routed watcher as lapped.
     */
    boolean route(final long from, final int routed, final long to, final Consumer<WatcherState> fallBehind)
    {
        if (log == null || to < from || to - from > MAX_REVISIONS)
        {
            return false;
        }
        final HistoryReader reader = log.newReader();
        try
        {
            return reader.seek(from) && routeRead(reader, from, routed, to, fallBehind);
        }
        catch (final RuntimeException unreadable)
        {
            // A log the dispatcher cannot read is the watchers' to report, each from its own catch-up.
            return false;
        }
        finally
        {
            reader.close();
        }
    }

    private boolean routeRead(
        final HistoryReader reader, final long from, final int routed, final long to, final Consumer<WatcherState> fallBehind)
    {
        boolean reachedTo = false;
        int skip = routed;
        final long deadline = System.nanoTime() + LOG_LAG_WAIT_NANOS;
        while (true)
        {
            if (!reader.next(record))
            {
                // A log holds whole revisions: once one change of the last is read, all of it is.
                if (reachedTo || System.nanoTime() - deadline >= 0)
                {
                    return reachedTo;
                }
                LockSupport.parkNanos(LOG_POLL_NANOS);
                continue;
            }
            if (record.revision() > to)
            {
                return true;
            }
            reachedTo = record.revision() == to;
            if (record.revision() == from && skip > 0)
            {
                skip--;
                continue;
            }
            registry.routeEvent(record, byKey, byIndex);
            for (int i = 0, size = matched.size(); i < size; i++)
            {
                final WatcherState watcher = matched.get(i);
                if (watcher.isRouted())
                {
                    fallBehind.accept(watcher);
                }
            }
            matched.clear();
        }
    }

    private void collect(final WatcherState watcher, final EventType seenAs)
    {
        if (!watcher.isCancelled() && record.revision() >= watcher.routedFrom() && watcher.passesFilters(seenAs))
        {
            matched.add(watcher);
        }
    }
}
