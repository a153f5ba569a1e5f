package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;

import java.nio.charset.StandardCharsets;

/**
 * Lists and watches the objects that one secondary index value selects (a Kubernetes field
 * selector such as the pods of one node): the list is the engine's consistent byIndex read and
 * the watch a watch by index from the list's revision + 1, in which an object that leaves the
 * selection arrives as a DELETE. Thread-safe; allocates what the engine's calls allocate.
 */
public final class IndexListerWatcher implements ListerWatcher
{
    private final RingWatch engine;
    private final String indexName;
    private final byte[] indexValue;

    /**
     * @param engine     the engine to read.
     * @param indexName  the secondary index, which must exist.
     * @param indexValue the index value that selects the objects; copied.
     * @throws InvalidRequestException if an argument is null.
     */
    public IndexListerWatcher(final RingWatch engine, final String indexName, final byte[] indexValue)
    {
        if (engine == null || indexName == null || indexValue == null)
        {
            throw new InvalidRequestException("engine, index name and index value must not be null");
        }
        this.engine = engine;
        this.indexName = indexName;
        this.indexValue = indexValue.clone();
    }

    @Override
    public RangeResult list()
    {
        return engine.byIndex(indexName, indexValue);
    }

    @Override
    public PullWatcher watch(final long fromRevision)
    {
        return engine.watchPull(WatchRequest.byIndex(indexName, indexValue).startRevision(fromRevision).withProgressNotify());
    }

    @Override
    public String engineName()
    {
        return engine.name();
    }

    @Override
    public String toString()
    {
        return "IndexListerWatcher(" + indexName + "=" + new String(indexValue, StandardCharsets.UTF_8) + ")";
    }
}
