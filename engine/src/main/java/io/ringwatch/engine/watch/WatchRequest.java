package io.ringwatch.engine.watch;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a watcher asks for (etcd's WatchCreateRequest): the keys, the revision to start from, and
 * options. Immutable: each {@code with} method returns a new request. Thread-safe. Two requests
 * are equal when they ask for the same thing (same keys or index value, start revision and
 * options), so a watcher need not keep the caller's instance to answer {@link Watcher#request()}.
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
    private final String indexName;
    private final byte[] indexValue;

    private WatchRequest(
        final KeyRange range,
        final long startRevision,
        final boolean prevKv,
        final boolean noPut,
        final boolean noDelete,
        final boolean progressNotify,
        final String indexName,
        final byte[] indexValue)
    {
        this.indexName = indexName;
        this.indexValue = indexValue;
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
        return new WatchRequest(range, 0, false, false, false, false, null, null);
    }

    /**
     * A watch by secondary index (Kubernetes field-selector semantics): every event whose old or
     * new value has {@code indexValue} under index {@code indexName}. An event whose old value
     * matches and new value does not reaches the watcher as a DELETE (the key left its view;
     * the old value is its previous key-value); one whose new value matches and old value does
     * not, as a PUT without a previous key-value (an add). The index must exist when the watch
     * starts; its range is every key.
     *
     * @param indexName  the secondary index's name.
     * @param indexValue the index value; copied.
     * @return a request for those events from now on.
     * @throws InvalidRequestException if the name is null or empty or the value is null.
     */
    public static WatchRequest byIndex(final String indexName, final byte[] indexValue)
    {
        if (indexName == null || indexName.isEmpty() || indexValue == null)
        {
            throw new InvalidRequestException("index name must not be null or empty, nor the index value null");
        }
        return new WatchRequest(KeyRange.all(), 0, false, false, false, false, indexName, indexValue.clone());
    }

    /**
     * {@link #byIndex(String, byte[])} with a UTF-8 index value.
     *
     * @param indexName  the secondary index's name.
     * @param indexValue the index value.
     * @return a request for those events from now on.
     * @throws InvalidRequestException if an argument is null or the name empty.
     */
    public static WatchRequest byIndex(final String indexName, final String indexValue)
    {
        if (indexValue == null)
        {
            throw new InvalidRequestException("index value must not be null");
        }
        return byIndex(indexName, indexValue.getBytes(StandardCharsets.UTF_8));
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
        return new WatchRequest(range, revision, prevKv, noPut, noDelete, progressNotify, indexName, indexValue);
    }

    /**
     * @return a copy whose events carry the key-value each change replaced (etcd's prev_kv).
     */
    public WatchRequest withPrevKv()
    {
        return new WatchRequest(range, startRevision, true, noPut, noDelete, progressNotify, indexName, indexValue);
    }

    /**
     * @return a copy that filters out PUT events (etcd's NOPUT filter).
     */
    public WatchRequest noPut()
    {
        return new WatchRequest(range, startRevision, prevKv, true, noDelete, progressNotify, indexName, indexValue);
    }

    /**
     * @return a copy that filters out DELETE events (etcd's NODELETE filter).
     */
    public WatchRequest noDelete()
    {
        return new WatchRequest(range, startRevision, prevKv, noPut, true, progressNotify, indexName, indexValue);
    }

    /**
     * @return a copy that receives periodic progress notifications carrying the revision the
     * watcher is complete up to (etcd's progress_notify, Kubernetes bookmarks).
     */
    public WatchRequest withProgressNotify()
    {
        return new WatchRequest(range, startRevision, prevKv, noPut, noDelete, true, indexName, indexValue);
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

    /**
     * @return whether this is a watch by secondary index.
     */
    public boolean isIndexWatch()
    {
        return indexName != null;
    }

    /**
     * @return the secondary index watched, or null for a key watch.
     */
    public String indexName()
    {
        return indexName;
    }

    /**
     * @return a copy of the index value watched, or null for a key watch.
     */
    public byte[] indexValue()
    {
        return indexValue == null ? null : indexValue.clone();
    }

    /**
     * @param other another object.
     * @return true when it is a request for the same keys or index value, from the same start
     * revision, with the same options.
     */
    @Override
    public boolean equals(final Object other)
    {
        if (this == other)
        {
            return true;
        }
        if (!(other instanceof WatchRequest))
        {
            return false;
        }
        final WatchRequest that = (WatchRequest)other;
        return startRevision == that.startRevision && prevKv == that.prevKv && noPut == that.noPut &&
            noDelete == that.noDelete && progressNotify == that.progressNotify && range.equals(that.range) &&
            Objects.equals(indexName, that.indexName) && Arrays.equals(indexValue, that.indexValue);
    }

    /**
     * @return a hash consistent with {@link #equals(Object)}.
     */
    @Override
    public int hashCode()
    {
        int hash = range.hashCode();
        hash = 31 * hash + Long.hashCode(startRevision);
        hash = 31 * hash + (prevKv ? 1 : 0) + (noPut ? 2 : 0) + (noDelete ? 4 : 0) + (progressNotify ? 8 : 0);
        hash = 31 * hash + Objects.hashCode(indexName);
        return 31 * hash + Arrays.hashCode(indexValue);
    }

    @Override
    public String toString()
    {
        return "WatchRequest(" + (indexName != null ? "index " + indexName + "=" +
            new String(indexValue, StandardCharsets.UTF_8) : range) + ", start=" + startRevision + (prevKv ? ", prevKv" : "") +
            (noPut ? ", noPut" : "") + (noDelete ? ", noDelete" : "") + (progressNotify ? ", progressNotify" : "") + ")";
    }
}
