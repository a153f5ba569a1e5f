package io.ringwatch.engine.internal.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The current state of every key, off-heap: key bytes to value bytes plus etcd's createRevision,
 * modRevision and version. A million keys add no per-key heap objects and no GC work.
 * <p>
 * Threads: ONE writer thread calls {@link #put} and {@link #remove}; any number of reader threads
 * call {@link #get}, {@link #scan}, {@link #size} and {@link #offHeapBytes} concurrently with it,
 * lock-free. A reader never sees a torn value, nor a value of one version with the metadata of
 * another; a slow reader never slows the writer (it retries instead).
 * <p>
 * Structure: each key is one node in a chunked off-heap arena (blocks sized to the node in 4-byte
 * units), found by a hash table of 32-bit node references tagged with 32 bits of the key's hash
 * ({@link #get}, O(1)) and ordered by a skip list through the same nodes ({@link #scan}). Every
 * node carries a seqlock version that only counts up, also across free and reuse. Limits: 16 GiB
 * of direct memory, keys up to 2^17 - 1 bytes, nodes up to 1 GiB.
 * <p>
 * Allocation: none per operation in steady state. Heap and direct memory are allocated when the
 * arena adds a chunk or the hash table is rebuilt, both amortised over many writes; freed nodes
 * are reused, so repeated writes of the same keys stop growing memory. {@link #close} frees it.
 */
public final class OffHeapIndex implements AutoCloseable
{
    private static final VarHandle SIZE;
    private static final ThreadLocal<IndexEntry> SCAN_ENTRY = ThreadLocal.withInitial(IndexEntry::new);
    private static final int MIN_CHUNK_SHIFT = 16;
    /** Marks metadata that {@code store} derives from the previous entry rather than takes. */
    private static final long DERIVED = 0;
    private static final int MAX_CHUNK_SHIFT = 20;
    /** Largest size hint: below the keys the hash table's largest capacity holds right after a growth. */
    private static final int MAX_INITIAL_KEYS = 1 << 27;
    /** Bytes a node may need at its tallest; key plus value must leave room for it. */
    private static final long MAX_NODE_LENGTH = BlockArena.MAX_BLOCK;

    static
    {
        try
        {
            SIZE = MethodHandles.lookup().findVarHandle(OffHeapIndex.class, "size", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final BlockArena arena;
    private final NodeHashIndex hashIndex;
    private final SkipList skipList;
    private volatile long size;
    private boolean closed;
    /** The slots an ordered load holds back; null outside one. */
    private PendingSlots pendingSlots;
    /** Whether any key was ever stored with a lease; writer thread only. */
    private boolean leaseStored;
    /** The slot contents of the batch {@link #touch} is loading. */
    private long[] touched = new long[0];
    /** Scratch for an out-of-order key in an ordered load; null outside one. */
    private IndexEntry loadPrev;

    /**
     * Creates an empty index sized for {@code initialCapacityKeys}; it grows as needed. Allocates
     * the hash table and the first arena chunk. Any thread; hand it to the writer safely.
     *
     * @param initialCapacityKeys keys expected; a hint, 0 or more.
     * @throws IndexArgumentException if negative or absurdly large.
     */
    public OffHeapIndex(final int initialCapacityKeys)
    {
        if (initialCapacityKeys < 0 || initialCapacityKeys > MAX_INITIAL_KEYS)
        {
            throw new IndexArgumentException("initialCapacityKeys out of range: " + initialCapacityKeys);
        }
        // about 128 bytes per small key: small indexes take small chunks, large ones 1 MiB chunks
        final int wantedShift = 64 - Long.numberOfLeadingZeros(Math.max(1L, initialCapacityKeys * 128L) - 1);
        arena = new BlockArena(Math.max(MIN_CHUNK_SHIFT, Math.min(MAX_CHUNK_SHIFT, wantedShift)));
        hashIndex = new NodeHashIndex(arena, initialCapacityKeys);
        skipList = new SkipList(arena);
    }

    /**
     * Inserts or replaces a key. If the key existed, fills {@code prevOut} with the old entry and
     * keeps its createRevision, incrementing its version; otherwise {@code prevOut.found()} is
     * false and the new entry has createRevision = modRevision and version 1.
     * Writer thread only. Allocates only when the arena or hash table grows.
     *
     * @param key         buffer holding the key.
     * @param keyOffset   offset of the key in {@code key}.
     * @param keyLength   key length, at least 1.
     * @param value       buffer holding the value.
     * @param valueOffset offset of the value in {@code value}.
     * @param valueLength value length, 0 or more.
     * @param modRevision revision of this change, at least 1.
     * @param prevOut     receives the previous entry, if any.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public void put(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long modRevision,
        final IndexEntry prevOut)
    {
        store(key, keyOffset, keyLength, value, valueOffset, valueLength, 0, DERIVED, modRevision, DERIVED, prevOut);
    }

    /**
     * As {@link #put(DirectBuffer, int, int, DirectBuffer, int, int, long, IndexEntry)}, attaching the
     * key to {@code lease} (0: no lease). A key with a lease takes 8 more bytes in its node. Writer
     * thread only. Allocates only when the arena or hash table grows.
     *
     * @param key         buffer holding the key.
     * @param keyOffset   offset of the key in {@code key}.
     * @param keyLength   key length, at least 1.
     * @param value       buffer holding the value.
     * @param valueOffset offset of the value in {@code value}.
     * @param valueLength value length, 0 or more.
     * @param lease       the key's lease id after the put, 0 for none.
     * @param modRevision revision of this change, at least 1.
     * @param prevOut     receives the previous entry, if any.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public void put(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long modRevision,
        final IndexEntry prevOut)
    {
        store(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, DERIVED, modRevision, DERIVED, prevOut);
    }

    /**
     * Inserts or replaces a key with the metadata given rather than derived: how recovery rebuilds
     * the index from a snapshot or the revision log, whose records carry each key's full state.
     * Otherwise exactly like {@link #put}. Writer thread only. Allocates only when the arena or
     * hash table grows.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key in {@code key}.
     * @param keyLength      key length, at least 1.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value in {@code value}.
     * @param valueLength    value length, 0 or more.
     * @param createRevision the key's createRevision, at least 1 and at most {@code modRevision}.
     * @param modRevision    the key's modRevision, at least 1.
     * @param version        the key's version, at least 1.
     * @param prevOut        receives the previous entry, if any.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public void restore(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long modRevision, final long version,
        final IndexEntry prevOut)
    {
        checkMetadata(createRevision, modRevision, version);
        store(key, keyOffset, keyLength, value, valueOffset, valueLength, 0, createRevision, modRevision, version, prevOut);
    }

    /**
     * As {@link #restore(DirectBuffer, int, int, DirectBuffer, int, int, long, long, long, IndexEntry)},
     * with the key's lease (0: none). Writer thread only.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key in {@code key}.
     * @param keyLength      key length, at least 1.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value in {@code value}.
     * @param valueLength    value length, 0 or more.
     * @param lease          the key's lease id, 0 for none.
     * @param createRevision the key's createRevision, at least 1 and at most {@code modRevision}.
     * @param modRevision    the key's modRevision, at least 1.
     * @param version        the key's version, at least 1.
     * @param prevOut        receives the previous entry, if any.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public void restore(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision, final long modRevision, final long version,
        final IndexEntry prevOut)
    {
        checkMetadata(createRevision, modRevision, version);
        store(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, createRevision, modRevision, version, prevOut);
    }

    /**
     * As {@link #restore(DirectBuffer, int, int, DirectBuffer, int, int, long, long, long, long, IndexEntry)}
     * for recovery's replay, which never reads the previous entry: a present key's node is updated
     * or replaced without its key and value being copied out first. Writer thread only. Allocates
     * only when the arena or hash table grows.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key in {@code key}.
     * @param keyLength      key length, at least 1.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value in {@code value}.
     * @param valueLength    value length, 0 or more.
     * @param lease          the key's lease id, 0 for none.
     * @param createRevision the key's createRevision, at least 1 and at most {@code modRevision}.
     * @param modRevision    the key's modRevision, at least 1.
     * @param version        the key's version, at least 1.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public void restoreWithoutPrevious(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision, final long modRevision, final long version)
    {
        checkMetadata(createRevision, modRevision, version);
        checkChange(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, modRevision);
        leaseStored |= lease != 0;

        final long hash = Keys.hash(key, keyOffset, keyLength);
        final int slot = hashIndex.findSlot(hash, key, keyOffset, keyLength);
        if (slot < 0)
        {
            insert(hash, key, keyOffset, keyLength, value, valueOffset, valueLength, lease, createRevision, modRevision, version);
            return;
        }
        final int node = hashIndex.nodeAt(slot);
        final UnsafeBuffer buffer = arena.buffer(node);
        final int offset = arena.offset(node);
        if (createRevision == Nodes.createRevision(buffer, offset) &&
            Nodes.valueFits(buffer, offset, valueLength, lease, createRevision, modRevision, version))
        {
            Nodes.updateValue(buffer, offset, value, valueOffset, valueLength, lease, createRevision, modRevision, version);
        }
        else
        {
            relocate(slot, node, key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
                createRevision, modRevision, version);
        }
    }

    private void store(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long givenCreateRevision, final long modRevision, final long givenVersion,
        final IndexEntry prevOut)
    {
        checkChange(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, modRevision);
        checkEntry("prevOut", prevOut);
        leaseStored |= lease != 0;

        final long hash = Keys.hash(key, keyOffset, keyLength);
        final int slot = hashIndex.findSlot(hash, key, keyOffset, keyLength);
        if (slot < 0)
        {
            prevOut.clear();
            insert(hash, key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
                givenCreateRevision == DERIVED ? modRevision : givenCreateRevision, modRevision,
                givenVersion == DERIVED ? 1 : givenVersion);
            return;
        }
        final int node = hashIndex.nodeAt(slot);
        final UnsafeBuffer buffer = arena.buffer(node);
        final int offset = arena.offset(node);
        Nodes.copyEntry(buffer, offset, prevOut);
        final long version = givenVersion == DERIVED ? prevOut.version() + 1 : givenVersion;
        final long createRevision = givenCreateRevision == DERIVED ? prevOut.createRevision() : givenCreateRevision;
        if (createRevision == prevOut.createRevision() && Nodes.valueFits(buffer, offset, valueLength, lease, createRevision, modRevision, version))
        {
            Nodes.updateValue(buffer, offset, value, valueOffset, valueLength, lease, createRevision, modRevision, version);
        }
        else
        {
            relocate(slot, node, key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
                createRevision, modRevision, version);
        }
    }

    /**
     * Starts an ordered load, how recovery loads a snapshot, whose keys come in ascending order:
     * makes room in the hash table for {@code expectedKeys} more keys, then lets
     * {@link #restoreInOrder} add each key that sorts after every key present without a hash probe,
     * its hash slot held back and inserted in batches in slot order ({@code PendingSlots}), until
     * {@link #finishOrderedLoad}. Until then the index is only being built: the writer thread may
     * call nothing but {@link #restoreInOrder} and no other thread may use it. Allocates the hash
     * table when it grows and the held-back slots' arrays (at most 16 MiB of heap while the load lasts).
     *
     * @param expectedKeys keys the load will add, a hint, 0 or more (larger than the index can hold: as many as it can).
     * @throws IndexArgumentException if negative or a load was already begun; nothing changes.
     */
    public void beginOrderedLoad(final long expectedKeys)
    {
        if (expectedKeys < 0)
        {
            throw new IndexArgumentException("expectedKeys must not be negative: " + expectedKeys);
        }
        if (pendingSlots != null)
        {
            throw new IndexArgumentException("an ordered load was already begun");
        }
        hashIndex.reserve(size + expectedKeys);
        pendingSlots = new PendingSlots();
        loadPrev = new IndexEntry();
    }

    /**
     * As {@link #restore(DirectBuffer, int, int, DirectBuffer, int, int, long, long, long, long, IndexEntry)}
     * inside an ordered load, without the previous entry: a key that sorts after every key present is
     * absent, so it is linked after the last node with no hash probe and its hash slot is held back;
     * any other key (out of order) first inserts the held-back slots, then is restored as usual.
     * Writer thread only. Allocates only when the arena or hash table grows.
     *
     * @param key            buffer holding the key.
     * @param keyOffset      offset of the key in {@code key}.
     * @param keyLength      key length, at least 1.
     * @param value          buffer holding the value.
     * @param valueOffset    offset of the value in {@code value}.
     * @param valueLength    value length, 0 or more.
     * @param lease          the key's lease id, 0 for none.
     * @param createRevision the key's createRevision, at least 1 and at most {@code modRevision}.
     * @param modRevision    the key's modRevision, at least 1.
     * @param version        the key's version, at least 1.
     * @throws IndexArgumentException if no ordered load was begun or an argument is invalid; nothing changes.
     */
    public void restoreInOrder(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision, final long modRevision, final long version)
    {
        final PendingSlots pending = pendingSlots;
        if (pending == null)
        {
            throw new IndexArgumentException("no ordered load was begun");
        }
        checkMetadata(createRevision, modRevision, version);
        checkChange(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, modRevision);
        if (!skipList.sortsAfterLast(key, keyOffset, keyLength))
        {
            insertPendingSlots();
            restore(key, keyOffset, keyLength, value, valueOffset, valueLength, lease, createRevision, modRevision,
                version, loadPrev);
            return;
        }
        if (pending.isFull() || !hashIndex.hasRoomFor(pending.count() + 1))
        {
            insertPendingSlots();
            hashIndex.ensureRoomForInsert();
        }
        leaseStored |= lease != 0;
        final int node = linkNewNode(key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
            createRevision, modRevision, version);
        SeqLock.endWrite(arena.buffer(node), arena.offset(node));
        pending.add(SlotTable.slotFor(SlotTable.tag(Keys.hash(key, keyOffset, keyLength)), node));
        SIZE.setRelease(this, size + 1);
    }

    /**
     * Ends an ordered load: inserts the held-back hash slots, after which the index is whole and
     * may be used and shared as usual. Writer thread only; does nothing without a load begun.
     */
    public void finishOrderedLoad()
    {
        if (pendingSlots != null)
        {
            insertPendingSlots();
            pendingSlots = null;
            loadPrev = null;
        }
    }

    /**
     * Loads what the lookups of a batch of keys will read first (each key's home hash slot, then the
     * node it names), without waiting on each: the loads of one step do not depend on each other, so
     * their cache misses overlap, where changing one key after another waits for each miss in turn
     * (recovery's replay touches each batch before applying it). Changes nothing. Writer thread
     * only; allocates only when {@code count} exceeds every earlier batch.
     *
     * @param keys       buffer holding the keys.
     * @param keyOffsets the keys' offsets in {@code keys}.
     * @param keyLengths the keys' lengths, each at least 1.
     * @param from       index of the batch's first key in the two arrays.
     * @param count      keys in the batch, from index {@code from}.
     * @return a value of what was loaded, meaningless, for the caller to keep (so that no load is
     * optimised away).
     * @throws IndexArgumentException if an argument is invalid.
     */
    public long touch(final DirectBuffer keys, final int[] keyOffsets, final int[] keyLengths, final int from, final int count)
    {
        if (keys == null || keyOffsets == null || keyLengths == null || from < 0 || count < 0 ||
            from + count > keyOffsets.length || from + count > keyLengths.length)
        {
            throw new IndexArgumentException("invalid batch of " + count + " keys from " + from);
        }
        if (touched.length < count)
        {
            touched = new long[count];
        }
        final long[] contents = touched;
        for (int i = 0; i < count; i++)
        {
            final int offset = keyOffsets[from + i];
            final int length = keyLengths[from + i];
            checkKey(keys, offset, length);
            contents[i] = hashIndex.touchHome(Keys.hash(keys, offset, length));
        }
        long kept = 0;
        for (int i = 0; i < count; i++)
        {
            kept += hashIndex.touchNode(contents[i]);
        }
        return kept;
    }

    /**
     * Removes a key, filling {@code prevOut} with the removed entry. Writer thread only;
     * allocates nothing.
     *
     * @param key       buffer holding the key.
     * @param keyOffset offset of the key in {@code key}.
     * @param keyLength key length, at least 1.
     * @param prevOut   receives the removed entry; {@code found()} false if there was none.
     * @return true if the key was present; false, and nothing changed, if it was absent.
     * @throws IndexArgumentException if an argument is invalid; nothing changes.
     */
    public boolean remove(final DirectBuffer key, final int keyOffset, final int keyLength, final IndexEntry prevOut)
    {
        checkKey(key, keyOffset, keyLength);
        checkEntry("prevOut", prevOut);

        final long hash = Keys.hash(key, keyOffset, keyLength);
        final int slot = hashIndex.findSlot(hash, key, keyOffset, keyLength);
        if (slot < 0)
        {
            prevOut.clear();
            return false;
        }
        final int node = hashIndex.nodeAt(slot);
        final UnsafeBuffer buffer = arena.buffer(node);
        final int offset = arena.offset(node);
        Nodes.copyEntry(buffer, offset, prevOut);
        // odd from here on: no reader completes a read of the node while it is being unlinked
        arena.beginFree(node);
        skipList.findPredecessors(key, keyOffset, keyLength);
        skipList.unlink(node, Nodes.level(buffer, offset));
        hashIndex.remove(slot);
        arena.completeFree(node);
        SIZE.setRelease(this, size - 1);
        return true;
    }

    /**
     * Copies the current entry for a key into {@code into}. Any thread, concurrent with the
     * writer; the copy is one consistent version that was current during the call.
     * Allocates nothing unless {@code into}'s buffers must grow.
     *
     * @param key       buffer holding the key.
     * @param keyOffset offset of the key in {@code key}.
     * @param keyLength key length, at least 1.
     * @param into      receives the entry; {@code found()} false if absent.
     * @return whether the key was present.
     * @throws IndexArgumentException if an argument is invalid.
     */
    public boolean get(final DirectBuffer key, final int keyOffset, final int keyLength, final IndexEntry into)
    {
        checkKey(key, keyOffset, keyLength);
        checkEntry("into", into);
        return hashIndex.get(Keys.hash(key, keyOffset, keyLength), key, keyOffset, keyLength, into);
    }

    /**
     * Visits entries with {@code from <= key < to} in ascending unsigned-byte order, using a
     * holder cached per thread (a nested scan from inside a visitor gets a fresh one).
     * See {@link #scan(DirectBuffer, int, int, DirectBuffer, int, int, int, IndexVisitor, IndexEntry)}.
     *
     * @return number of entries visited.
     * @throws IndexArgumentException if an argument is invalid.
     */
    public int scan(
        final DirectBuffer from, final int fromOffset, final int fromLength,
        final DirectBuffer to, final int toOffset, final int toLength,
        final int limit,
        final IndexVisitor visitor)
    {
        final IndexEntry cached = SCAN_ENTRY.get();
        final IndexEntry entry = cached.cursor().busy ? new IndexEntry() : cached;
        return scan(from, fromOffset, fromLength, to, toOffset, toLength, limit, visitor, entry);
    }

    /**
     * Visits entries with {@code from <= key < to} in ascending unsigned-byte (lexicographic)
     * order. Any thread, concurrent with the writer. Not a point-in-time snapshot: each visited
     * entry is one consistent version that was current at some moment during the scan, keys come
     * strictly ascending with none twice, and a key present and unchanged for the whole scan is
     * visited. Allocates nothing unless {@code entry}'s buffers must grow.
     *
     * @param from       lower bound, inclusive; null for the first key.
     * @param fromOffset offset of the lower bound.
     * @param fromLength length of the lower bound, 0 or more.
     * @param to         upper bound, exclusive; null for no upper bound.
     * @param toOffset   offset of the upper bound.
     * @param toLength   length of the upper bound, 0 or more.
     * @param limit      most entries to visit; 0 or less for no limit.
     * @param visitor    receives each entry; returns false to stop.
     * @param entry      holder passed to the visitor; not in use by another scan.
     * @return number of entries visited.
     * @throws IndexArgumentException if an argument is invalid.
     */
    public int scan(
        final DirectBuffer from, final int fromOffset, final int fromLength,
        final DirectBuffer to, final int toOffset, final int toLength,
        final int limit,
        final IndexVisitor visitor,
        final IndexEntry entry)
    {
        if (from != null)
        {
            checkRange("from", from, fromOffset, fromLength);
        }
        if (to != null)
        {
            checkRange("to", to, toOffset, toLength);
        }
        if (visitor == null)
        {
            throw new IndexArgumentException("visitor is null");
        }
        checkEntry("entry", entry);
        final ScanCursor cursor = entry.cursor();
        if (cursor.busy)
        {
            throw new IndexArgumentException("entry is in use by another scan");
        }
        cursor.busy = true;
        try
        {
            return skipList.scan(from, fromOffset, fromLength, to, toOffset, toLength, limit, visitor, entry);
        }
        finally
        {
            cursor.busy = false;
        }
    }

    /**
     * Starts making the arena's next chunks ahead on a thread of its own ({@link ChunkPrefault}),
     * so that filling the index (recovery) does not pay the page faults and zeroing of each new
     * chunk. The index is the same whether or not the thread keeps up. Writer thread only; close
     * the returned prefault on this thread before the index is shared or closed. Allocates the
     * thread and its queue.
     *
     * @return the running prefault, to close when the fill ends.
     * @throws IllegalStateException if a prefault is already running.
     */
    public ChunkPrefault prefaultChunks()
    {
        if (arena.isPrefaulted())
        {
            throw new IllegalStateException("chunks are already made ahead");
        }
        final ChunkPrefault prefault = new ChunkPrefault(arena, arena.chunkSize());
        arena.prefault(prefault);
        return prefault;
    }

    /**
     * Whether a key may hold a lease: false only if no key was ever stored with one, so that
     * recovery can skip a scan of every key when no key holds a lease. Writer thread only (or the
     * thread the index was handed to); allocates nothing.
     *
     * @return false if no key holds a lease; true if one may.
     */
    public boolean mayHoldLeases()
    {
        return leaseStored;
    }

    /**
     * @return number of keys; any thread.
     */
    public long size()
    {
        return size;
    }

    /**
     * @return bytes of direct memory the index holds (arena chunks and hash table); any thread.
     */
    public long offHeapBytes()
    {
        return arena.reservedBytes() + hashIndex.bytes();
    }

    /**
     * @return whether the hash table is moving into a larger one (both held meanwhile); any thread.
     * For benchmarks that tell the move's transient memory apart.
     */
    public boolean isHashTableMoving()
    {
        return hashIndex.isMoving();
    }

    /**
     * @return whether two hash tables are held: the next one allocated ahead of a growth, or the old
     * one moving into it; any thread. For benchmarks that tell the growth's transient memory apart.
     */
    public boolean holdsTwoHashTables()
    {
        return hashIndex.isMoving() || hashIndex.isNextPrepared();
    }

    /**
     * @return the hash table, for tests of its growth in this package; the writer thread only.
     */
    NodeHashIndex hashIndex()
    {
        return hashIndex;
    }

    /**
     * Frees the index's direct memory. Call it once no thread uses the index; use afterwards is
     * an error the caller must prevent. Repeated calls do nothing.
     */
    public void close()
    {
        if (!closed)
        {
            closed = true;
            hashIndex.close();
            arena.close();
        }
    }

    /** Room for every held-back slot was made as each was held back. */
    private void insertPendingSlots()
    {
        hashIndex.insertAll(pendingSlots);
    }

    private void insert(
        final long hash,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision, final long modRevision, final long version)
    {
        // everything that can fail (allocation) happens before the first visible change
        hashIndex.ensureRoomForInsert();
        final int node = linkNewNode(key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
            createRevision, modRevision, version);
        hashIndex.insert(hash, node);
        SeqLock.endWrite(arena.buffer(node), arena.offset(node));
        SIZE.setRelease(this, size + 1);
    }

    /**
     * Writes a new node and links it into the skip list; its seqlock stays odd (no reader sees the
     * key in one structure but not the other) until the caller has put it in the hash table too.
     */
    private int linkNewNode(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision, final long modRevision, final long version)
    {
        final int level = skipList.randomLevel();
        final int node = arena.allocate(BlockArena.blockLengthFor(
            Nodes.nodeLength(level, keyLength, valueLength, lease, Nodes.wide(createRevision, modRevision, version))));
        final UnsafeBuffer buffer = arena.buffer(node);
        final int offset = arena.offset(node);
        SeqLock.beginWrite(buffer, offset);
        Nodes.write(buffer, offset, level, key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
            createRevision, modRevision, version);
        skipList.findPredecessors(key, keyOffset, keyLength);
        skipList.link(node, level);
        return node;
    }

    /**
     * Moves a key whose new value outgrew its block to a larger node in the same places. The new
     * block has an eighth more room than the node needs, so a value that keeps growing a little
     * moves once per eighth rather than at every change.
     */
    private void relocate(
        final int slot,
        final int old,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease,
        final long createRevision,
        final long modRevision,
        final long version)
    {
        final UnsafeBuffer oldBuffer = arena.buffer(old);
        final int level = Nodes.level(oldBuffer, arena.offset(old));
        final long needed =
            Nodes.nodeLength(level, keyLength, valueLength, lease, Nodes.wide(createRevision, modRevision, version));
        final int fresh = arena.allocate(BlockArena.blockLengthFor(Math.min(MAX_NODE_LENGTH, needed + (needed >>> 3))));
        final UnsafeBuffer buffer = arena.buffer(fresh);
        final int offset = arena.offset(fresh);
        // both odd while the pointers move: readers see neither until the old one is gone
        arena.beginFree(old);
        SeqLock.beginWrite(buffer, offset);
        Nodes.write(buffer, offset, level, key, keyOffset, keyLength, value, valueOffset, valueLength, lease,
            createRevision, modRevision, version);
        skipList.findPredecessors(key, keyOffset, keyLength);
        skipList.replace(old, fresh, level);
        hashIndex.replace(slot, fresh);
        SeqLock.endWrite(buffer, offset);
        arena.completeFree(old);
    }

    private static void checkChange(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long lease, final long modRevision)
    {
        checkKey(key, keyOffset, keyLength);
        checkRange("value", value, valueOffset, valueLength);
        if (keyLength > Nodes.MAX_KEY_LENGTH || Nodes.nodeLength(Nodes.MAX_LEVEL, keyLength, valueLength, lease, true) > MAX_NODE_LENGTH)
        {
            throw new IndexArgumentException("key and value too large: " + keyLength + " + " + valueLength);
        }
        if (modRevision < 1)
        {
            throw new IndexArgumentException("modRevision must be positive: " + modRevision);
        }
    }

    private static void checkMetadata(final long createRevision, final long modRevision, final long version)
    {
        if (createRevision < 1 || createRevision > modRevision || version < 1)
        {
            throw new IndexArgumentException("invalid key metadata: createRevision " + createRevision +
                ", modRevision " + modRevision + ", version " + version);
        }
    }

    private static void checkKey(final DirectBuffer key, final int offset, final int length)
    {
        if (key == null)
        {
            throw new IndexArgumentException("key is null");
        }
        if (length < 1)
        {
            throw new IndexArgumentException("key is empty");
        }
        checkRange("key", key, offset, length);
    }

    private static void checkRange(final String name, final DirectBuffer buffer, final int offset, final int length)
    {
        if (buffer == null)
        {
            throw new IndexArgumentException(name + " is null");
        }
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length)
        {
            throw new IndexArgumentException(
                name + " range [" + offset + ", +" + length + ") outside buffer of " + buffer.capacity());
        }
    }

    private static void checkEntry(final String name, final IndexEntry entry)
    {
        if (entry == null)
        {
            throw new IndexArgumentException(name + " is null");
        }
    }
}
