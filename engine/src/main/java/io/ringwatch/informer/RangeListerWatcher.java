package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;

/**
 * Lists and watches one key range (a key, a range, a prefix or all keys) of an engine: the list
 * is a consistent range read and the watch a pull watch from the list's revision + 1 (the
 * engine's listAndWatch, split so the informer can resume after a cancellation). The watch asks
 * for progress notifications, so the informer's sync revision advances while the range is quiet.
 * Thread-safe; allocates what the engine's calls allocate.
 */
public final class RangeListerWatcher implements ListerWatcher
{
    private final RingWatch engine;
    private final KeyRange range;

    /**
     * @param engine the engine to read.
     * @param range  the keys to cache.
     * @throws InvalidRequestException if an argument is null.
     */
    public RangeListerWatcher(final RingWatch engine, final KeyRange range)
    {
        if (engine == null || range == null)
        {
            throw new InvalidRequestException("engine and range must not be null");
        }
        this.engine = engine;
        this.range = range;
    }

    @Override
    public RangeResult list()
    {
        return engine.range(range, 0);
    }

    @Override
    public PullWatcher watch(final long fromRevision)
    {
        return engine.watchPull(WatchRequest.of(range).startRevision(fromRevision).withProgressNotify());
    }

    @Override
    public String engineName()
    {
        return engine.name();
    }

    @Override
    public String toString()
    {
        return "RangeListerWatcher(" + range + ")";
    }
}
