package io.ringwatch.engine;

import io.ringwatch.engine.coalesce.CoalescingWatcher;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.direct.DirectEntry;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.DuplicateIndexException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.MissingJvmFlagsException;
import io.ringwatch.engine.errors.UnknownIndexException;
import io.ringwatch.engine.internal.dispatch.WatchHub;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.read.HistoricalReader;
import io.ringwatch.engine.internal.read.RangeReader;
import io.ringwatch.engine.internal.secondary.SecondaryIndexes;
import io.ringwatch.engine.internal.write.RevisionCursor;
import io.ringwatch.engine.internal.write.WritePipeline;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.Persistence;
import io.ringwatch.engine.stats.EngineStats;
import io.ringwatch.engine.stats.WatcherView;
import io.ringwatch.engine.watch.DeltaWatcher;
import io.ringwatch.engine.watch.ListWatch;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An embedded RingWatch engine: a key-value store whose every change gets a revision and can be
 * watched, with etcd v3 semantics, inside this JVM.
 *
 * <p>Writes from any thread enter a Disruptor ring consumed by one writer thread, which assigns
 * revisions and applies them to an off-heap index and a cyclic watch window; dispatcher threads
 * route window events to watchers. Reads are served from the index by the calling thread,
 * consistent at a revision, without stopping the writer.
 *
 * <p>Thread-safe: every method may be called from any thread. Errors are typed:
 * {@link InvalidRequestException} for bad arguments (nothing changed), {@link EngineClosedException}
 * after {@link #close()}, {@link CompactedException} and {@link FutureRevisionException} for
 * revisions out of reach. The convenient {@code byte[]} / {@code String} API allocates its
 * results; {@link #newDirectWriter()} and push/pull watchers do not allocate per event.
 *
 * <p>The facade only faces: an {@code EngineAssembly} builds the collaborators and closes them in
 * order, a {@code ReadGate} keeps reads out of a closed engine and close waiting for the reads
 * inside, {@code Compaction} owns the compaction point and {@code RevisionWait} the wait for a
 * revision (all package-private).
 */
public final class RingWatch implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(RingWatch.class);

    private final EngineAssembly parts;
    private final ReadGate gate;
    private final OffHeapIndex index;
    private final RevisionCursor cursor;
    private final WritePipeline writes;
    private final RangeReader reader;
    private final HistoricalReader historical;
    private final WatchHub watches;
    private final SecondaryIndexes secondary;
    private final Compaction compaction;
    private final RingWatchStats stats;
    private final int maxKeyBytes;

    private RingWatch(final RingWatchConfig config, final Journal journal)
    {
        parts = new EngineAssembly(config, journal);
        maxKeyBytes = config.maxKeyBytes();
        gate = parts.gate;
        index = parts.index;
        cursor = parts.cursor;
        writes = parts.writes;
        reader = parts.reader;
        historical = parts.historical;
        watches = parts.watches;
        secondary = parts.secondary;
        compaction = parts.compaction;
        stats = new RingWatchStats(this, index, parts.window, watches, writes, parts.snapshotter);
    }

    /**
     * Starts an engine: in memory, or over the journal that {@link RingWatchConfig#persistence()}
     * opens (the revision log), recovering its state from it first: its newest snapshot, then the
     * changes after it. A persistent engine continues from the journal's last revision, records
     * every new revision in it, lets watchers that fall out of the watch window catch up from it
     * instead of being cancelled, and closes it when it closes.
     *
     * @param config sizes, limits and thread strategies.
     * @return the running engine; close it to stop its threads.
     * @throws InvalidRequestException  if {@code config} is null, or its persistence opens no journal.
     * @throws MissingJvmFlagsException if the JVM lacks flags the engine needs ({@link JvmFlags}),
     *                                  before anything is started or opened.
     * @throws IllegalStateException    if the journal cannot be recovered from.
     */
    public static RingWatch open(final RingWatchConfig config)
    {
        if (config == null)
        {
            throw new InvalidRequestException("config must not be null");
        }
        final Persistence persistence = config.persistence();
        if (config.checkJvmFlags())
        {
            JvmFlags.check(persistence);
        }
        if (persistence == null)
        {
            return new RingWatch(config, null);
        }
        LOG.info("{}: opening {}", config.name(), persistence);
        final Journal journal = persistence.openJournal(config.name());
        if (journal == null)
        {
            // Not an in-memory engine in disguise: the configuration asked for persistence.
            throw new InvalidRequestException("the configured persistence opened no journal: " + persistence);
        }
        try
        {
            return new RingWatch(config, journal);
        }
        catch (final RuntimeException e)
        {
            journal.close();
            throw e;
        }
    }

    /**
     * @return a running in-memory engine with the default configuration.
     */
    public static RingWatch open()
    {
        return open(RingWatchConfig.defaults());
    }

    /**
     * Puts a key and waits until it is applied.
     *
     * @param key   the key.
     * @param value the value.
     * @return the write's revision.
     */
    public WriteResult put(final byte[] key, final byte[] value)
    {
        return write(Op.put(key, value));
    }

    /**
     * Puts a key and value, each encoded as UTF-8 (never the platform charset), and waits until it
     * is applied.
     *
     * @param key   the key, UTF-8 encoded.
     * @param value the value, UTF-8 encoded.
     * @return the write's revision.
     */
    public WriteResult put(final String key, final String value)
    {
        return write(Op.put(key, value));
    }

    /**
     * Puts only if the key's mod revision equals {@code expectedModRevision} (0: only if the key
     * is absent): optimistic concurrency, as Kubernetes updates objects.
     *
     * @param key                 the key.
     * @param value               the value.
     * @param expectedModRevision the mod revision the key must have.
     * @return the result; {@code succeeded()} is false when the revision did not match.
     */
    public WriteResult compareAndPut(final byte[] key, final byte[] value, final long expectedModRevision)
    {
        return writes.compareAndPut(Op.put(key, value).withPrevKv(), expectedModRevision);
    }

    /**
     * {@link #compareAndPut(byte[], byte[], long)} with a key and value encoded as UTF-8.
     *
     * @param key                 the key, UTF-8 encoded.
     * @param value               the value, UTF-8 encoded.
     * @param expectedModRevision the mod revision the key must have (0: only if absent).
     * @return the result; {@code succeeded()} is false when the revision did not match.
     * @throws InvalidRequestException if the key or value is null or too long.
     */
    public WriteResult compareAndPut(final String key, final String value, final long expectedModRevision)
    {
        return writes.compareAndPut(Op.put(key, value).withPrevKv(), expectedModRevision);
    }

    /**
     * Deletes one key and waits.
     *
     * @param key the key.
     * @return the result; {@code deleted()} is 0 when the key was absent (nothing changed).
     */
    public WriteResult delete(final byte[] key)
    {
        return write(Op.delete(key));
    }

    /**
     * Deletes one key, encoded as UTF-8, and waits.
     *
     * @param key the key, UTF-8 encoded.
     * @return the result; {@code deleted()} is 0 when the key was absent (nothing changed).
     * @throws InvalidRequestException if the key is null or empty.
     */
    public WriteResult delete(final String key)
    {
        return write(Op.delete(key));
    }

    /**
     * Deletes every key of a range (or prefix) under one revision and waits.
     *
     * @param range the keys.
     * @return the result with the number deleted.
     */
    public WriteResult delete(final KeyRange range)
    {
        return write(Op.delete(range));
    }

    /**
     * Applies one operation and waits.
     *
     * @param op a put or delete.
     * @return what it did.
     */
    public WriteResult write(final Op op)
    {
        gate.requireOpen();
        return writes.write(op);
    }

    /**
     * Applies one operation without waiting. The future completes on the writer thread (the
     * journal thread for a persistent engine): chain slow work with the {@code *Async} methods.
     *
     * @param op a put or delete.
     * @return the result, later.
     * @throws io.ringwatch.engine.errors.RingWatchException called where writes complete (inside
     *         another write's completion) while the write ring is full: that thread frees the ring's
     *         slots, so the write is refused at once rather than waiting for itself.
     */
    public CompletableFuture<WriteResult> writeAsync(final Op op)
    {
        gate.requireOpen();
        return writes.writeAsync(op);
    }

    /**
     * Applies a transaction atomically, under one revision, and waits. A transaction whose chosen
     * path reads at a revision out of bounds ({@link Op#readAt}) is refused, changing nothing.
     *
     * @param txn the transaction.
     * @return what it did.
     * @throws FutureRevisionException for a read on the chosen path after the revision before the
     *                                 transaction.
     * @throws CompactedException      for a read on the chosen path before the store's first revision.
     */
    public TxnResult txn(final Txn txn)
    {
        gate.requireOpen();
        return writes.txn(txn);
    }

    /**
     * Applies a transaction without waiting.
     *
     * @param txn the transaction.
     * @return the result, later (completed on the writer thread, or the journal thread for a
     *         persistent engine); completed exceptionally, with nothing changed, as {@link #txn}
     *         throws.
     * @throws io.ringwatch.engine.errors.RingWatchException called inside another write's
     *         completion while the write ring is full, as {@link #writeAsync} is.
     */
    public CompletableFuture<TxnResult> txnAsync(final Txn txn)
    {
        gate.requireOpen();
        return writes.txnAsync(txn);
    }

    /**
     * The engine's leases (etcd's Lease service, issue 15): grant, keep alive, revoke, time to
     * live, list. Keys are attached with {@link Op#withLease}; see {@link Leases} for the threading
     * and what each call costs. Calls after {@link #close()} throw
     * {@link io.ringwatch.engine.errors.EngineClosedException}.
     *
     * @return the leases; the same object on every call.
     */
    public Leases leases()
    {
        gate.requireOpen();
        return writes.leases();
    }

    /**
     * @return a zero-allocation writer for the calling thread (one per producer thread).
     */
    public DirectWriter newDirectWriter()
    {
        gate.requireOpen();
        return writes.newDirectWriter();
    }

    /**
     * A holder for {@link #get(DirectBuffer, int, int, DirectEntry)}, the zero-allocation point
     * read; reuse it on one thread. Any thread; allocates the holder and its two small buffers.
     *
     * @return a new, empty holder.
     */
    public DirectEntry newDirectEntry()
    {
        return new IndexEntry();
    }

    /**
     * @param key the key.
     * @return its current key-value, if present.
     */
    public Optional<KeyValue> get(final byte[] key)
    {
        final byte[] checked = KeyRange.key(key).fromKey();
        gate.enter();
        try
        {
            return Optional.ofNullable(reader.get(checked));
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * Zero-allocation point read: copies the key's current value and metadata into {@code into},
     * a holder the caller reuses (its buffers grow to the largest value seen, then stop
     * allocating). Any thread, concurrent with the writer; never a torn value.
     *
     * @param key    buffer holding the key.
     * @param offset where the key starts.
     * @param length the key's length, at least 1.
     * @param into   receives the entry, from {@link #newDirectEntry()}; {@code into.found()} tells
     *               whether the key exists.
     * @return true when the key exists.
     * @throws InvalidRequestException for an empty key, a key outside its buffer, a null argument,
     *                                 or a holder that {@link #newDirectEntry()} did not make.
     */
    public boolean get(final DirectBuffer key, final int offset, final int length, final DirectEntry into)
    {
        if (key == null || into == null || length <= 0)
        {
            throw new InvalidRequestException("key and holder must not be null and the key not empty");
        }
        if (!(into instanceof IndexEntry entry))
        {
            throw new InvalidRequestException("the holder must come from newDirectEntry(): " + into.getClass().getName());
        }
        WritePipeline.requireSlice("key", key, offset, length);
        gate.enter();
        try
        {
            return reader.get(key, offset, length, entry);
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * @param key the key, UTF-8 encoded.
     * @return its current key-value, if present.
     */
    public Optional<KeyValue> get(final String key)
    {
        return get(Keys.utf8(key));
    }

    /**
     * Reads a range, consistent at one revision, in key order.
     *
     * @param range the keys.
     * @param limit the most to return; 0 for all.
     * @return the key-values and the revision they are consistent at.
     */
    public RangeResult range(final KeyRange range, final int limit)
    {
        requireRange(range);
        if (limit < 0)
        {
            throw new InvalidRequestException("limit must not be negative: " + limit);
        }
        gate.enter();
        try
        {
            return reader.range(range, limit);
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * Reads a range as it was at a past revision (etcd's range with a revision): the present,
     * consistent at the current revision, with every change since {@code atRevision} undone from
     * the history (the revision log of a persistent engine, the watch window of an in-memory one).
     * Costs O(revisions since {@code atRevision}); allocates the result.
     *
     * @param range      the keys.
     * @param limit      the most key-values to return; 0 for all.
     * @param atRevision the revision to read at; 0 for the current one.
     * @return the key-values at that revision, in key order; {@link RangeResult#revision()} is
     * {@code atRevision} (or the current revision for 0).
     * @throws InvalidRequestException if an argument is invalid.
     * @throws CompactedException      if {@code atRevision} is before the compaction point or no
     *                                 longer in the history.
     * @throws FutureRevisionException if {@code atRevision} is beyond the current revision.
     * @throws io.ringwatch.engine.errors.HistoryLostException if revisions after {@code atRevision} are
     *                                 missing from the middle of the revision log (a cycle file deleted
     *                                 or lost), not compacted.
     * @throws io.ringwatch.engine.errors.RingWatchException if the revision log (ASYNC), needed where the window no longer
     *                                 holds the revisions after {@code atRevision}, has not appended
     *                                 up to the current revision within 10 s (a stalled or failed journal),
     *                                 or at once inside a write's completion, which runs on the journal
     *                                 thread it would wait for.
     */
    public RangeResult range(final KeyRange range, final int limit, final long atRevision)
    {
        requireRange(range);
        if (limit < 0 || atRevision < 0)
        {
            throw new InvalidRequestException("limit and revision must not be negative: " + limit + ", " + atRevision);
        }
        if (atRevision == 0)
        {
            return range(range, limit);
        }
        final long current = cursor.applied();
        if (atRevision > current)
        {
            throw new FutureRevisionException(atRevision, current);
        }
        compaction.requireNotBefore(atRevision);
        gate.enter();
        try
        {
            return historical.range(range, limit, atRevision);
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * Counts a range's keys, consistent at one revision, as {@link #range(KeyRange, int)} reads
     * them; copies the keys (and their revisions) while it runs, no value.
     *
     * @param range the keys.
     * @return how many keys the range holds, consistent at one revision.
     */
    public long count(final KeyRange range)
    {
        requireRange(range);
        gate.enter();
        try
        {
            return reader.count(range);
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * @return the newest applied revision (0 for an empty store).
     */
    public long currentRevision()
    {
        return cursor.applied();
    }

    /**
     * @return the compaction point: watches may not start before it (0: never compacted).
     */
    public long compactRevision()
    {
        return compaction.revision();
    }

    /**
     * @return the longest key a write takes ({@link RingWatchConfig#maxKeyBytes()}): no key the
     *         engine holds is longer. Any thread; no allocation.
     */
    public int maxKeyBytes()
    {
        return maxKeyBytes;
    }

    /**
     * etcd's compaction mark (its mvcc {@code compactMainRev}), which decides what etcd calls
     * compacted: -1 in a store never compacted, 0 after {@code compact(0)} (kept across a restart of
     * a persistent engine), else {@link #compactRevision()}. Any thread; no allocation.
     *
     * @return the mark.
     */
    public long compactMark()
    {
        return compaction.mark();
    }

    /**
     * Drops the history before {@code revision}: watches from an earlier revision are refused
     * with {@link io.ringwatch.engine.watch.CancelReason#COMPACTED}. As etcd, 0 is taken once on a
     * store never compacted: it drops nothing and moves only {@link #compactMark()} from -1 to 0
     * (a transaction's read at revision -1 is compacted from then on).
     *
     * @param revision the new compaction point.
     * @throws InvalidRequestException  if it is negative.
     * @throws FutureRevisionException  if it is beyond the current revision.
     * @throws CompactedException       if it is not beyond {@link #compactMark()}.
     * @throws io.ringwatch.engine.errors.RingWatchException if a persistent engine's log cannot record it (a full disk;
     *                                  nothing changed), or inside a write's completion for a
     *                                  revision its ASYNC log has not appended yet (elsewhere a
     *                                  compaction waits the microseconds until it is).
     */
    public void compact(final long revision)
    {
        compaction.compact(revision);
    }

    /**
     * Waits until the engine has applied {@code revision} (read your writes; the Kubernetes
     * watch cache's waitUntilFreshAndBlock).
     *
     * @param revision the revision to wait for.
     * @param timeout  the longest to wait.
     * @return true when it was applied in time.
     */
    public boolean waitForRevision(final long revision, final Duration timeout)
    {
        gate.requireOpen();
        return parts.revisionWait.await(revision, timeout);
    }

    /**
     * Starts a push watch: {@code listener} is called on a delivery thread.
     *
     * @param request  what to watch and from which revision.
     * @param listener receives the events.
     * @return the watcher.
     */
    public Watcher watch(final WatchRequest request, final WatchListener listener)
    {
        gate.requireOpen();
        return watches.watch(request, listener);
    }

    /**
     * Starts a pull watch, drained by its owner.
     *
     * @param request what to watch and from which revision.
     * @return the watcher.
     */
    public PullWatcher watchPull(final WatchRequest request)
    {
        gate.requireOpen();
        return watches.watchPull(request);
    }

    /**
     * Starts a coalescing pull watch (Juju's multiwatcher): each {@link DeltaWatcher#next} call
     * returns every key changed since the previous one once, in its latest state, with the
     * revision up to which the batch is complete. A client that calls rarely costs memory per
     * distinct key changed, not per event, and is never lapped: when the events it missed are
     * gone, the watcher lists the range again and hands over a reset batch.
     *
     * @param request what to watch and from which revision.
     * @return the watcher.
     */
    public DeltaWatcher watchDeltas(final WatchRequest request)
    {
        gate.requireOpen();
        return CoalescingWatcher.open(request, this::watch, this::listAndWatch);
    }

    /**
     * Lists a range consistently and watches it from the next revision, with no gap and no
     * duplicate (client-go's List+Watch).
     *
     * @param request  what to watch; its start revision must be 0 (the snapshot decides it).
     * @param listener receives the changes after the snapshot.
     * @return the snapshot and the watcher.
     */
    public ListWatch<Watcher> listAndWatch(final WatchRequest request, final WatchListener listener)
    {
        final RangeResult snapshot = snapshotFor(request);
        return new ListWatch<>(snapshot, watch(request.startRevision(snapshot.revision() + 1), listener));
    }

    /**
     * Lists a range consistently and returns a pull watcher continuing from the next revision.
     *
     * @param request what to watch; its start revision must be 0.
     * @return the snapshot and the watcher.
     */
    public ListWatch<PullWatcher> listAndWatchPull(final WatchRequest request)
    {
        final RangeResult snapshot = snapshotFor(request);
        return new ListWatch<>(snapshot, watchPull(request.startRevision(snapshot.revision() + 1)));
    }

    /**
     * Adds a secondary index (client-go's AddIndexers): built from the current state while
     * writes continue, then kept current by the writer. Returns once the writer maintains it.
     *
     * @param name     the index's name.
     * @param function derives index values from a value; thread-safe and deterministic.
     * @throws InvalidRequestException  for a null or empty name or a null function.
     * @throws DuplicateIndexException  if an index has that name.
     * @throws IndexFunctionException   if the function throws on a current value; nothing added.
     */
    public void addIndex(final String name, final IndexFunction function)
    {
        gate.enterRunningUserCode();
        try
        {
            secondary.addIndex(name, function);
        }
        finally
        {
            gate.leaveRunningUserCode();
        }
    }

    /**
     * Removes a secondary index and frees its memory once reads of it end. Watchers by index of
     * it keep running.
     *
     * @param name the index's name.
     * @throws UnknownIndexException if no index has that name.
     */
    public void removeIndex(final String name)
    {
        gate.requireOpen();
        secondary.removeIndex(name);
    }

    /**
     * Reads the key-values whose value has {@code indexValue} under index {@code name},
     * consistent at one revision (client-go's ByIndex), without stopping the writer.
     *
     * @param name       the index's name.
     * @param indexValue the index value.
     * @return the key-values in key order and their revision.
     * @throws UnknownIndexException if no index has that name.
     */
    public RangeResult byIndex(final String name, final byte[] indexValue)
    {
        gate.enterRunningUserCode();
        try
        {
            return secondary.byIndex(name, indexValue);
        }
        finally
        {
            gate.leaveRunningUserCode();
        }
    }

    /**
     * {@link #byIndex(String, byte[])} with a UTF-8 index value.
     *
     * @param name       the index's name.
     * @param indexValue the index value.
     * @return the key-values in key order and their revision.
     */
    public RangeResult byIndex(final String name, final String indexValue)
    {
        if (indexValue == null)
        {
            throw new InvalidRequestException("index value must not be null");
        }
        return byIndex(name, Keys.utf8(indexValue));
    }

    /**
     * Lists the distinct values an index holds (client-go's ListIndexFuncValues); not a
     * snapshot, see {@link SecondaryIndexes#indexValues(String)}.
     *
     * @param name the index's name.
     * @return the index values, ordered by length then bytes.
     * @throws UnknownIndexException if no index has that name.
     */
    public List<byte[]> indexValues(final String name)
    {
        gate.enter();
        try
        {
            return secondary.indexValues(name);
        }
        finally
        {
            gate.leave();
        }
    }

    /**
     * @return the names of the secondary indexes, sorted.
     */
    public Set<String> indexNames()
    {
        return secondary.indexNames();
    }

    /**
     * @return the engine's name ({@link RingWatchConfig#name()}), in its thread names, meters and
     * log lines.
     */
    public String name()
    {
        return parts.name;
    }

    /**
     * @return the number of keys currently stored.
     */
    public long size()
    {
        return index.size();
    }

    /**
     * @return the number of live watchers.
     */
    public int watcherCount()
    {
        return watches.watcherCount();
    }

    /**
     * Live figures for an operator: revisions, the window, watchers by state and by cancel
     * reason, pending entries against the budget, journal and snapshot timings, delivery
     * threads. Register {@code io.ringwatch.engine.metrics.RingWatchMetrics} with a Micrometer
     * registry to publish them as meters.
     *
     * @return the engine's figures, read when asked; the same object every call. Any thread.
     */
    public EngineStats stats()
    {
        return stats;
    }

    /**
     * A view of every live watcher: its resolved start revision, the revision up to which it has
     * been handed every event it wants, its lag behind {@link #currentRevision()}, its queue and
     * its state (synced on the routes, catching up by its own cursor, rejoining).
     *
     * @return the views, ordered by watch id; an immutable snapshot. Any thread; allocates the
     * list and one view per watcher; O(watchers), never blocks the engine's threads.
     */
    public List<WatcherView> watchers()
    {
        return watches.watchers(cursor.applied());
    }

    /**
     * @return the watch window's current capacity, in events.
     */
    public int windowCapacity()
    {
        return parts.window.capacity();
    }

    /**
     * Stops the engine: refuses new requests, completes every write already admitted, delivers
     * what the window holds, ends every watch with ENGINE_CLOSED, stops the threads, and frees the
     * index's off-heap memory once no read is in flight. Waits at most the slow-listener timeout
     * for push listeners to return. A listener may call it: it returns without waiting for the
     * calling thread, and that listener hears its own ENGINE_CLOSED after it returns. A write's
     * completion or callback (or an index function) may call it too: it refuses new calls and
     * returns at once, and the engine finishes closing on a thread of its own
     * ({@code <name>-closer}) once that completion returns, completing every write admitted before
     * the close. Idempotent: a later call returns once the engine is closed (at once on the
     * engine's own threads, which the close waits for).
     */
    @Override
    public void close()
    {
        parts.close();
    }

    private RangeResult snapshotFor(final WatchRequest request)
    {
        if (request == null)
        {
            throw new InvalidRequestException("watch request must not be null");
        }
        if (request.startRevision() != 0)
        {
            throw new InvalidRequestException("list-then-watch starts after its snapshot: start revision must be 0");
        }
        return request.isIndexWatch() ? byIndex(request.indexName(), request.indexValue()) : range(request.range(), 0);
    }

    private static void requireRange(final KeyRange range)
    {
        if (range == null)
        {
            throw new InvalidRequestException("range must not be null");
        }
    }
}
