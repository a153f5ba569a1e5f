package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.DuplicateIndexException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.errors.UnknownIndexException;
import io.ringwatch.engine.internal.index.IndexVisitor;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.revision.PublishedRevisions;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.WatchWindow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's secondary indexes (client-go's Indexer, off-heap): named index functions whose
 * values the writer keeps current ({@link IndexMaintainer}), consistent {@link #byIndex} reads,
 * and runtime {@link #addIndex} / {@link #removeIndex} while writes continue.
 *
 * <p>Adding an index: a fuzzy scan of the primary index from applied revision R0 builds it on
 * the caller's thread, the window's events up to the writer's bound A make it exact at A, then
 * it is handed to the writer, which replays the few events after A before its next command and
 * maintains it from then on (replay is idempotent: every event carries its previous and new
 * value). If the window was lapped meanwhile, the build starts over. A function that throws on
 * any current value fails the registration and nothing is added.
 *
 * <p>Threads: every method may be called from any thread except the writer's; adds and removes
 * are serialised and wait for one empty command through the writer. Reads are lock-free.
 * Allocation: reads allocate their results; adding allocates the new index's direct memory.
 */
public final class SecondaryIndexes implements AutoCloseable
{
    private static final int MAX_BUILD_ATTEMPTS = 8;
    private static final SecondaryIndex[] NONE = new SecondaryIndex[0];

    private final OffHeapIndex primary;
    private final WatchWindow window;
    private final PublishedRevisions cursor;
    private final Runnable writerBarrier;
    private final IndexMaintainer maintainer;
    private final ByIndexReader reader;
    private final ConcurrentHashMap<String, SecondaryIndex> byName = new ConcurrentHashMap<>();
    private final Object admin = new Object();
    /** Admin-owned (under {@link #admin}): what the writer was last told to maintain. */
    private SecondaryIndex[] maintained = NONE;
    private boolean closed;

    /**
     * @param primary       the primary index (read by builds and byIndex).
     * @param window        the window builds and reads repair from.
     * @param cursor        the writer's progress.
     * @param undo          keeps the pre-images consistent byIndex reads need.
     * @param writerBarrier runs one empty command through the writer and waits for it, so the
     *                      writer has adopted whatever was published before it.
     */
    public SecondaryIndexes(
        final OffHeapIndex primary, final WatchWindow window, final PublishedRevisions cursor, final UndoLog undo,
        final Runnable writerBarrier)
    {
        this.primary = primary;
        this.window = window;
        this.cursor = cursor;
        this.writerBarrier = writerBarrier;
        this.maintainer = new IndexMaintainer(window);
        this.reader = new ByIndexReader(primary, undo, cursor);
    }

    /**
     * @return the writer-side maintainer to hand to the writer. Any thread; allocates nothing.
     */
    public IndexMaintainer maintainer()
    {
        return maintainer;
    }

    /**
     * Adds an index built from the current state while writes continue, and returns once the
     * writer maintains it. Not from the writer thread. Allocates the index.
     *
     * @param name     the index's name, not empty.
     * @param function derives index values from a value; see {@link IndexFunction}.
     * @throws InvalidRequestException  for a null or empty name or a null function.
     * @throws DuplicateIndexException  if an index has that name.
     * @throws IndexFunctionException   if the function throws on a current value (nothing added).
     * @throws RingWatchException       if the window was lapped on every build attempt.
     */
    public void addIndex(final String name, final IndexFunction function)
    {
        requireName(name);
        if (function == null)
        {
            throw new InvalidRequestException("index function must not be null");
        }
        synchronized (admin)
        {
            requireOpen();
            if (byName.containsKey(name))
            {
                throw new DuplicateIndexException(name);
            }
            for (int attempt = 0; attempt < MAX_BUILD_ATTEMPTS; attempt++)
            {
                final SecondaryIndex index = build(name, function);
                if (index != null && handOver(index))
                {
                    byName.put(name, index);
                    return;
                }
            }
            throw new RingWatchException("could not build index '" + name + "': the window was overwritten on " +
                MAX_BUILD_ATTEMPTS + " attempts; enlarge the window's capacity");
        }
    }

    /**
     * Removes an index: the writer stops maintaining it, new reads fail with
     * {@link UnknownIndexException}, and its direct memory is freed once reads in flight end.
     * Watchers of the index keep running on its function. Not from the writer thread.
     *
     * @param name the index's name.
     * @throws UnknownIndexException if no index has that name.
     */
    public void removeIndex(final String name)
    {
        requireName(name);
        synchronized (admin)
        {
            requireOpen();
            final SecondaryIndex index = byName.remove(name);
            if (index == null)
            {
                throw new UnknownIndexException(name);
            }
            publish(without(maintained, index));
            writerBarrier.run();
            index.retire();
        }
    }

    /**
     * Reads the keys whose current value has {@code indexValue} under index {@code name},
     * consistent at one revision. Any thread, lock-free. Allocates the result.
     *
     * @param name       the index's name.
     * @param indexValue the index value.
     * @return the key-values in key order and the revision they are consistent at.
     * @throws UnknownIndexException  if no index has that name.
     * @throws IndexFunctionException if the index was disabled (its function is not deterministic).
     */
    public RangeResult byIndex(final String name, final byte[] indexValue)
    {
        if (indexValue == null)
        {
            throw new InvalidRequestException("index value must not be null");
        }
        final SecondaryIndex index = enter(name);
        try
        {
            return reader.read(index, indexValue);
        }
        finally
        {
            index.leave();
        }
    }

    /**
     * Lists the distinct values index {@code name} holds, ordered by length then bytes. Any
     * thread, lock-free; not a snapshot: a value whose keys all stay during the call is listed,
     * one appearing or vanishing meanwhile may or may not be. Allocates the list.
     *
     * @param name the index's name.
     * @return the index values.
     * @throws UnknownIndexException  if no index has that name.
     * @throws IndexFunctionException if the index was disabled.
     */
    public List<byte[]> indexValues(final String name)
    {
        final SecondaryIndex index = enter(name);
        try
        {
            return index.distinctValues();
        }
        finally
        {
            index.leave();
        }
    }

    /**
     * @return the names of the indexes, sorted. Any thread; allocates the set.
     */
    public Set<String> indexNames()
    {
        return new TreeSet<>(byName.keySet());
    }

    /**
     * @param name an index's name.
     * @return its function, for routing watchers of it. Any thread; allocates nothing.
     * @throws UnknownIndexException if no index has that name.
     */
    public IndexFunction function(final String name)
    {
        requireName(name);
        final SecondaryIndex index = byName.get(name);
        if (index == null)
        {
            throw new UnknownIndexException(name);
        }
        return index.function;
    }

    /**
     * Frees every index once reads in flight end. Call after the writer has stopped; later adds
     * and removes are refused. Idempotent.
     */
    @Override
    public void close()
    {
        synchronized (admin)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            for (final SecondaryIndex index : maintained)
            {
                index.retire();
            }
            for (final SecondaryIndex index : byName.values())
            {
                index.retire();
            }
            byName.clear();
            maintained = NONE;
        }
    }

    /** Builds an index exact at some recent revision; null if the window was lapped meanwhile. */
    private SecondaryIndex build(final String name, final IndexFunction function)
    {
        final SecondaryIndex index = new SecondaryIndex(name, function);
        try
        {
            final long before = cursor.applied();
            final IndexValues none = new IndexValues();
            final IndexValues values = new IndexValues();
            final IndexVisitor file = entry ->
            {
                values.collect(name, function, entry.value(), 0, entry.valueLength());
                index.update(entry.key(), 0, entry.keyLength(), none, values, Math.max(1, entry.modRevision()), false);
                return true;
            };
            primary.scan(null, 0, 0, null, 0, 0, 0, file);
            final long upTo = awaitApplying();
            if (index.replay(window, new EventRecord(), before, upTo, false))
            {
                return index;
            }
        }
        catch (final RuntimeException e)
        {
            index.retire();
            throw e;
        }
        index.retire();
        return null;
    }

    /** Makes the writer adopt a built index; false (index freed) if the writer found it lapped. */
    private boolean handOver(final SecondaryIndex index)
    {
        publish(with(maintained, index));
        // On failure (the engine closing) the index stays in maintained and close() frees it.
        writerBarrier.run();
        if (index.state() == SecondaryIndex.ACTIVE)
        {
            return true;
        }
        publish(without(maintained, index));
        index.retire();
        if (index.state() == SecondaryIndex.FAILED)
        {
            throw index.failure();
        }
        return false;
    }

    private void publish(final SecondaryIndex[] indexes)
    {
        maintained = indexes;
        maintainer.publish(indexes);
    }

    private SecondaryIndex enter(final String name)
    {
        requireName(name);
        final SecondaryIndex index = byName.get(name);
        if (index == null || !index.enter())
        {
            throw new UnknownIndexException(name);
        }
        if (index.state() == SecondaryIndex.FAILED)
        {
            index.leave();
            throw new IndexFunctionException(index.failure().getMessage(), index.failure());
        }
        return index;
    }

    private long awaitApplying()
    {
        return cursor.awaitApplying();
    }

    private void requireOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("the engine is closed");
        }
    }

    private static void requireName(final String name)
    {
        if (name == null || name.isEmpty())
        {
            throw new InvalidRequestException("index name must not be null or empty");
        }
    }

    private static SecondaryIndex[] with(final SecondaryIndex[] indexes, final SecondaryIndex added)
    {
        final SecondaryIndex[] next = Arrays.copyOf(indexes, indexes.length + 1);
        next[indexes.length] = added;
        return next;
    }

    private static SecondaryIndex[] without(final SecondaryIndex[] indexes, final SecondaryIndex removed)
    {
        final List<SecondaryIndex> kept = new ArrayList<>(Arrays.asList(indexes));
        kept.remove(removed);
        return kept.toArray(NONE);
    }
}
