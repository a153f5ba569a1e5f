package io.ringwatch.engine.watch;

import io.ringwatch.engine.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;

/**
 * What a watcher asks for (etcd's WatchCreateRequest): the keys, the revision to start from, and
 * options. Immutable: each {@code with} method returns a new request. Thread-safe.
 *
 * <p>Start revision: 0 means "from now" (the first revision after the current one); a revision
 * at or before the current one replays history from it; a later revision waits for it.
 */
public final class WatchRequest
{
    private final KeyRange range;
    private final long startRevision;
    private final boolean prevKv;
    private final boolean noPut;
    private final boolean noDelete;
    private final boolean progressNotify;

    private WatchRequest(
        final KeyRange range,
        final long startRevision,
        final boolean prevKv,
        final boolean noPut,
        final boolean noDelete,
        final boolean progressNotify)
    {
        this.range = range;
        this.startRevision = startRevision;
        this.prevKv = prevKv;
        this.noPut = noPut;
        this.noDelete = noDelete;
        this.progressNotify = progressNotify;
    }

    /**
     * @param range the keys to watch.
     * @return a request for every change of {@code range} from now on.
     * @throws InvalidRequestException if the range is null.
     */
    public static WatchRequest of(final KeyRange range)
    {
        if (range == null)
        {
            throw new InvalidRequestException("watch range must not be null");
        }
        return new WatchRequest(range, 0, false, false, false, false);
    }

    /**
     * @param revision first revision to deliver; 0 for "from now".
     * @return a copy starting at {@code revision}.
     * @throws InvalidRequestException if the revision is negative.
     */
    public WatchRequest startRevision(final long revision)
    {
        if (revision < 0)
        {
            throw new InvalidRequestException("start revision must not be negative: " + revision);
        }
        return new WatchRequest(range, revision, prevKv, noPut, noDelete, progressNotify);
    }

    /**
     * @return a copy whose events carry the key-value each change replaced (etcd's prev_kv).
     */
    public WatchRequest withPrevKv()
    {
        return new WatchRequest(range, startRevision, true, noPut, noDelete, progressNotify);
    }

    /**
     * @return a copy that filters out PUT events (etcd's NOPUT filter).
     */
    public WatchRequest noPut()
    {
        return new WatchRequest(range, startRevision, prevKv, true, noDelete, progressNotify);
    }

    /**
     * @return a copy that filters out DELETE events (etcd's NODELETE filter).
     */
    public WatchRequest noDelete()
    {
        return new WatchRequest(range, startRevision, prevKv, noPut, true, progressNotify);
    }

    /**
     * @return a copy that receives periodic progress notifications carrying the revision the
     * watcher is complete up to (etcd's progress_notify, Kubernetes bookmarks).
     */
    public WatchRequest withProgressNotify()
    {
        return new WatchRequest(range, startRevision, prevKv, noPut, noDelete, true);
    }

    /**
     * @return the keys watched.
     */
    public KeyRange range()
    {
        return range;
    }

    /**
     * @return the first revision asked for; 0 for "from now".
     */
    public long startRevision()
    {
        return startRevision;
    }

    /**
     * @return whether events carry the previous key-value.
     */
    public boolean prevKv()
    {
        return prevKv;
    }

    /**
     * @return whether PUT events are filtered out.
     */
    public boolean isNoPut()
    {
        return noPut;
    }

    /**
     * @return whether DELETE events are filtered out.
     */
    public boolean isNoDelete()
    {
        return noDelete;
    }

    /**
     * @return whether periodic progress notifications are wanted.
     */
    public boolean progressNotify()
    {
        return progressNotify;
    }

    @Override
    public String toString()
    {
        return "WatchRequest(" + range + ", start=" + startRevision + (prevKv ? ", prevKv" : "") +
            (noPut ? ", noPut" : "") + (noDelete ? ", noDelete" : "") + (progressNotify ? ", progressNotify" : "") + ")";
    }
}
