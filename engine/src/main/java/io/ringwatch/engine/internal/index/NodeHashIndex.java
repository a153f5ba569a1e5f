package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;

/**
 * Point lookup from key to node: a {@link SlotTable} with tombstones (readers never see entries
 * move within a table, as they would with backward-shift deletion), kept between 0.64 and 0.8 full
 * (live entries plus tombstones) by moving it, a few slots per write, into a table sized for the
 * live keys at 0.64 (1.25 times the old one as keys grow; smaller or the same after many removes).
 * <p>
 * <b>The next table.</b> Zeroing a table costs tens of milliseconds at millions of keys (page faults
 * and stores over all of it), too long for one write. So when the table is {@link #PREPARE_FILL_PERCENT}
 * full the writer allocates the table the growth at 0.8 will need without zeroing it
 * ({@link SlotTable#uncleared}: the size is known, {@code capacityFor} the live keys the trigger will
 * find if no tombstone is reused meanwhile), and each step below also clears a stretch of it, sized to
 * clear it all within half the inserts left before the trigger. The growth takes it if it has the
 * capacity needed (clearing what is left first); else it frees it and allocates a zeroed table as
 * before. It is never published before it is cleared, so readers never see it uncleared.
 * <p>
 * <b>The move.</b> When one more insert would fill the table past 0.8, the writer takes the next
 * table and publishes both ({@link Tables}: the one moving, the current one). From then on inserts
 * go to the current table, and each {@link #findSlot} and {@link #ensureRoomForInsert} first moves
 * the next {@link #moveStep} slots of the old table in slot order: a slot naming a node is copied
 * into the current table, then marked {@link SlotTable#MOVED}; empty slots and tombstones stay. The
 * step is sized so that the whole old table has moved after a quarter of the inserts the current
 * table can take before its own trigger; a trigger that comes first (a bulk {@link #insertAll})
 * finishes the move at once. When the last slot has moved the old table is unpublished. A key is in
 * one table at a time, so the writer finds, replaces and removes it where it is: {@link #findSlot}
 * probes the old table first, then the current one, and says which in the slot it returns.
 * <p>
 * <b>Readers during a move.</b> {@link #get} probes the old table, then the current one, of one
 * published pair, and retries with the pair published meanwhile if both miss. A key present
 * throughout is found: (1) no slot of either table becomes {@link SlotTable#EMPTY} again (a removed
 * entry is a tombstone, a moved one {@code MOVED}), so every probe chain a key's slot was reached
 * by, wrapping past the table's end included, stays unbroken; (2) if the reader finds the key's
 * old slot {@code MOVED}, its acquiring read of that marker sees the copy the writer released into
 * the current table before it, and that copy is where a probe of the current table, which comes
 * after, looks; (3) if the key was still in the old table it is found there, or replaced there
 * (the slot re-read shows the new node, or {@code MOVED} after which (2) holds); (4) if the pair
 * changed during the probes (a move ended, another began), a miss proves nothing and the reader
 * retries. A slot is one 8-byte word, so no read sees half an entry. A removed key may still be
 * reported by a reader that started before the removal: true at some moment during the call.
 * <p>
 * Old tables are released by the garbage collector once no reader holds them, so no reader ever
 * probes freed memory.
 * <p>
 * Mutators: the writer thread only. {@link #get}: any thread. Allocation: a table and a pair per
 * growth (amortised over the inserts that caused it; the table allocated uncleared at 0.79 full);
 * none per operation.
 */
final class NodeHashIndex
{
    private static final int MIN_CAPACITY = 16;
    /** A slot from {@link #findSlot} in the table being moved carries this bit; capacities stay below it. */
    private static final int IN_MOVING = 1 << 30;
    /** Fewest slots a step moves: two cache lines of the old table. */
    private static final int MIN_MOVE_STEP = 16;
    /** Most keys: those a table of {@link SlotTable#MAX_CAPACITY} holds at its fill after a growth. */
    private static final long MAX_KEYS = SlotTable.MAX_CAPACITY * 16L / 25;
    /**
     * Fill, live keys and tombstones, at which the next table is allocated uncleared: one point below
     * the trigger, so two tables are held only over the last sixteenth of the inserts between two
     * growths (at 0.76, the index's memory per key at 1,000,000 keys was 181 B instead of 168 B), and
     * each step clears about 250 slots, 2 KB (the new table's 1.25 C slots over half the 0.01 C
     * inserts left).
     */
    private static final int PREPARE_FILL_PERCENT = 79;

    private final BlockArena arena;
    private volatile Tables tables;
    /** Live keys in both tables. */
    private int live;
    /** Tombstones in the current table (the moving one's are dropped with it). */
    private int tombstones;
    /** Next slot of the moving table to move. */
    private int moveCursor;
    /** Slots each step moves during the present move. */
    private int moveStep;
    /**
     * The table the next growth is expected to need, being cleared a step at a time; null when none.
     * Written by the writer only; volatile for {@link #bytes()}.
     */
    private volatile SlotTable next;
    /** Slots of {@code next} each step clears. */
    private int clearStep;
    /** Growths that took the table prepared ahead. */
    private int preparedGrowths;

    /**
     * The published tables: the one whose slots are moving ({@code null} when none is) and the
     * current one, which takes every insert. Immutable, so a reader sees a consistent pair.
     */
    private record Tables(SlotTable moving, SlotTable current)
    {
    }

    /**
     * @param arena         holding the nodes.
     * @param expectedKeys  keys to hold without a growth.
     */
    NodeHashIndex(final BlockArena arena, final int expectedKeys)
    {
        this.arena = arena;
        this.tables = new Tables(null, new SlotTable(capacityFor(expectedKeys)));
    }

    /**
     * Moves a step of a move in progress, then finds the slot naming the node for a key; the writer
     * thread only. A slot whose tag differs is passed over without loading its node.
     *
     * @return the slot (valid for {@link #nodeAt}, {@link #replace} and {@link #remove} until the next
     * call of another mutator), or -1 when the key is absent.
     */
    int findSlot(final long hash, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        moveSome();
        final Tables published = tables;
        final int tag = SlotTable.tag(hash);
        if (published.moving != null)
        {
            final int slot = find(published.moving, tag, key, keyOffset, keyLength);
            if (slot >= 0)
            {
                return slot | IN_MOVING;
            }
        }
        return find(published.current, tag, key, keyOffset, keyLength);
    }

    /**
     * @return the node a slot from {@link #findSlot} names; the writer thread only.
     */
    int nodeAt(final int slot)
    {
        return SlotTable.node(tableOf(slot).get(slot & ~IN_MOVING));
    }

    /**
     * Moves a step of a move in progress, then starts a move first if one more insert would fill
     * the table past 0.8, so that {@link #insert} cannot fail half way; the writer thread only.
     * Allocates only when it starts a move.
     *
     * @throws IllegalStateException if the keys would need a table larger than the largest.
     */
    void ensureRoomForInsert()
    {
        moveSome();
        if (!hasRoomFor(1))
        {
            grow(capacityFor(live + 1));
        }
        else if (next == null && (live + tombstones + 1L) * 100 > tables.current.capacity() * (long)PREPARE_FILL_PERCENT)
        {
            prepareNext();
        }
    }

    /**
     * @return whether {@code more} inserts fit without a growth; the writer thread only.
     */
    boolean hasRoomFor(final int more)
    {
        return (live + tombstones + (long)more) * 5L <= tables.current.capacity() * 4L;
    }

    /**
     * Grows the table now, if needed, so that {@code keys} live keys in all (at most as many as
     * the largest table holds) fit without another growth, and finishes the move at once; the
     * writer thread only. Allocates only when it grows.
     */
    void reserve(final long keys)
    {
        final int capacity = capacityFor((int)Math.min(keys, MAX_KEYS));
        if (capacity > tables.current.capacity())
        {
            grow(capacity);
            moveAll();
        }
    }

    /**
     * Loads the slot a lookup of {@code hash} starts at (in the table that holds the key's slot),
     * so that a later probe finds it cached; the writer thread only.
     *
     * @return the slot's content, for {@link #touchNode}.
     */
    long touchHome(final long hash)
    {
        final Tables published = tables;
        final int tag = SlotTable.tag(hash);
        final SlotTable moving = published.moving;
        if (moving != null && moving.home(tag) >= moveCursor)
        {
            return moving.get(moving.home(tag));
        }
        final SlotTable t = published.current;
        return t.get(t.home(tag));
    }

    /**
     * Loads the start of the node a slot's content from {@link #touchHome} names, if it names one,
     * so that a later probe comparing its key finds it cached; the writer thread only.
     *
     * @return a word of the node, for the caller to keep the load alive.
     */
    long touchNode(final long content)
    {
        if (!SlotTable.holdsNode(content))
        {
            return content;
        }
        final int node = SlotTable.node(content);
        return arena.buffer(node).getLong(arena.offset(node) + Nodes.SHAPE_OFFSET);
    }

    /**
     * Adds nodes for keys known to be absent, given as slot contents ({@link PendingSlots}), in
     * the order of their home slots so that the probes walk the table forward instead of jumping
     * across it; the writer thread only, after making room for all of them.
     */
    void insertAll(final PendingSlots pending)
    {
        final SlotTable t = tables.current;
        pending.sortByHome(t.capacity());
        final long[] contents = pending.contents();
        for (int i = 0; i < pending.count(); i++)
        {
            place(t, contents[i]);
        }
        live += pending.count();
        pending.clear();
    }

    /**
     * Adds a node for a key known to be absent, after {@link #ensureRoomForInsert}; the writer
     * thread only.
     */
    void insert(final long hash, final int node)
    {
        place(tables.current, SlotTable.slotFor(SlotTable.tag(hash), node));
        live++;
    }

    /**
     * Points a slot from {@link #findSlot} at a node that replaces its key's old node; the
     * writer thread only.
     */
    void replace(final int slot, final int node)
    {
        final SlotTable t = tableOf(slot);
        final int index = slot & ~IN_MOVING;
        t.set(index, SlotTable.slotFor(SlotTable.tagOf(t.get(index)), node));
    }

    /**
     * Empties a slot from {@link #findSlot}; the writer thread only.
     */
    void remove(final int slot)
    {
        tableOf(slot).set(slot & ~IN_MOVING, SlotTable.TOMBSTONE);
        live--;
        if ((slot & IN_MOVING) == 0)
        {
            tombstones++;
        }
    }

    /**
     * Copies the entry for a key into {@code into}; any thread, concurrent with the writer.
     * The answer was true at some moment during the call (see the class comment for a move).
     *
     * @return whether the key was present.
     */
    boolean get(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final IndexEntry into)
    {
        final int tag = SlotTable.tag(hash);
        while (true)
        {
            final Tables published = tables;
            // the moving table first: a key leaves it only after its copy is in the current one
            if (published.moving != null && read(published.moving, tag, key, keyOffset, keyLength, into))
            {
                return true;
            }
            if (read(published.current, tag, key, keyOffset, keyLength, into))
            {
                return true;
            }
            // a miss in tables that were replaced meanwhile proves nothing: retry in the new ones
            if (tables == published)
            {
                into.clear();
                return false;
            }
        }
    }

    /**
     * @return bytes of memory held by the published tables, both while a move lasts, and by the next
     * table while it is prepared (allocated, though its pages are touched only as it is cleared); any
     * thread.
     */
    long bytes()
    {
        final Tables published = tables;
        final SlotTable prepared = next;
        return published.current.bytes() + (published.moving == null ? 0 : published.moving.bytes()) +
            (prepared == null ? 0 : prepared.bytes());
    }

    /**
     * @return whether a move is in progress; any thread (tests and benchmarks).
     */
    boolean isMoving()
    {
        return tables.moving != null;
    }

    /**
     * @return slots in the current table; any thread (tests and benchmarks).
     */
    int capacity()
    {
        return tables.current.capacity();
    }

    /**
     * Frees the tables' memory; no thread may use the index afterwards.
     */
    void close()
    {
        final Tables published = tables;
        if (published.moving != null)
        {
            published.moving.free();
        }
        published.current.free();
        dropNext();
    }

    /**
     * @return whether the next table is allocated ahead of the growth (being cleared or cleared);
     * any thread (tests and benchmarks).
     */
    boolean isNextPrepared()
    {
        return next != null;
    }

    /**
     * @return how many growths took the table prepared ahead instead of allocating a zeroed one; the
     * writer thread only (tests).
     */
    int preparedGrowthCount()
    {
        return preparedGrowths;
    }

    private SlotTable tableOf(final int slot)
    {
        final Tables published = tables;
        return (slot & IN_MOVING) == 0 ? published.current : published.moving;
    }

    private int find(final SlotTable t, final int tag, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        int slot = t.home(tag);
        while (true)
        {
            final long content = t.get(slot);
            if (content == SlotTable.EMPTY)
            {
                return -1;
            }
            if (SlotTable.mayHold(content, tag))
            {
                final int node = SlotTable.node(content);
                if (Nodes.holdsKey(arena.buffer(node), arena.offset(node), key, keyOffset, keyLength))
                {
                    return slot;
                }
            }
            slot = t.next(slot);
        }
    }

    /** Probes one table for a reader: whether it copied the key's entry into {@code into}. */
    private boolean read(
        final SlotTable t, final int tag, final DirectBuffer key, final int keyOffset, final int keyLength,
        final IndexEntry into)
    {
        int slot = t.home(tag);
        for (int probes = 0; probes < t.capacity(); probes++)
        {
            long content = t.get(slot);
            if (content == SlotTable.EMPTY)
            {
                return false;
            }
            while (SlotTable.mayHold(content, tag))
            {
                final int node = SlotTable.node(content);
                final int outcome = Nodes.readIfKey(
                    arena.buffer(node), arena.offset(node), key, keyOffset, keyLength, into);
                if (outcome == Nodes.MATCH)
                {
                    return true;
                }
                // the node may have been replaced, removed or moved after we read the slot: the slot
                // changes before the old node is freed, so re-reading it shows the successor (or MOVED)
                final long again = t.get(slot);
                if (again == content)
                {
                    break;
                }
                content = again;
            }
            slot = t.next(slot);
        }
        return false;
    }

    /** Puts a slot content in the first free slot of its probe chain, a tombstone or empty one. */
    private void place(final SlotTable t, final long content)
    {
        int slot = t.home(SlotTable.tagOf(content));
        long there;
        while ((there = t.get(slot)) != SlotTable.EMPTY && there != SlotTable.TOMBSTONE)
        {
            slot = t.next(slot);
        }
        if (there == SlotTable.TOMBSTONE)
        {
            tombstones--;
        }
        t.set(slot, content);
    }

    /**
     * Publishes a table of {@code capacity} slots beside the current one, which starts moving into
     * it; a move still in progress is finished first.
     */
    private void grow(final int capacity)
    {
        moveAll();
        final SlotTable old = tables.current;
        final SlotTable fresh = takeNext(capacity);
        // a quarter of the inserts the new table takes before its own trigger moves the whole old one
        final long headroom = Math.max(1, capacity * 4L / 5 - live);
        moveStep = (int)Math.max(MIN_MOVE_STEP, Math.min(old.capacity(), 4L * old.capacity() / headroom + 1));
        moveCursor = 0;
        tombstones = 0;
        tables = new Tables(old, fresh);
    }

    /**
     * Allocates, uncleared, the table the growth at 0.8 will need if the inserts until then add keys
     * (none reuses a tombstone), and sizes the clearing steps to finish in half of those inserts.
     */
    private void prepareNext()
    {
        final int capacity = tables.current.capacity();
        final long untilTrigger = capacity * 4L / 5 - live - tombstones;
        final long keysAtTrigger = live + untilTrigger + 1;
        if (keysAtTrigger > MAX_KEYS)
        {
            return;
        }
        next = SlotTable.uncleared(capacityFor((int)keysAtTrigger));
        clearStep = (int)Math.min(next.capacity(), 2L * next.capacity() / Math.max(1, untilTrigger) + 1);
    }

    /** The prepared table if it has {@code capacity} slots, cleared to the end; else a zeroed new one. */
    private SlotTable takeNext(final int capacity)
    {
        final SlotTable prepared = next;
        if (prepared != null && prepared.capacity() == capacity)
        {
            next = null;
            prepared.clearSome(capacity);
            preparedGrowths++;
            return prepared;
        }
        dropNext();
        return new SlotTable(capacity);
    }

    private void dropNext()
    {
        if (next != null)
        {
            next.free();
            next = null;
        }
    }

    private void moveAll()
    {
        while (tables.moving != null)
        {
            moveSome();
        }
    }

    /**
     * Moves the next {@link #moveStep} slots of the moving table, each copied before it is marked
     * {@code MOVED}; unpublishes the moving table after its last slot. Slots carry their tag, so no
     * node is read, and homes grow with the tag, so the copies land in nearly ascending slots.
     */
    private void moveSome()
    {
        if (next != null && !next.isCleared())
        {
            next.clearSome(clearStep);
        }
        final Tables published = tables;
        final SlotTable old = published.moving;
        if (old == null)
        {
            return;
        }
        final SlotTable fresh = published.current;
        final int end = (int)Math.min(old.capacity(), (long)moveCursor + moveStep);
        for (int slot = moveCursor; slot < end; slot++)
        {
            final long content = old.get(slot);
            if (SlotTable.holdsNode(content))
            {
                place(fresh, content);
                old.set(slot, SlotTable.MOVED);
            }
        }
        moveCursor = end;
        if (end == old.capacity())
        {
            tables = new Tables(null, fresh);
        }
    }

    /** Slots for {@code keys} keys at 0.64 full, the fill right after a growth (a growth is 1.25 times). */
    private static int capacityFor(final int keys)
    {
        final long wanted = Math.max(MIN_CAPACITY, (keys * 25L + 15) / 16);
        if (wanted > SlotTable.MAX_CAPACITY)
        {
            throw new IllegalStateException("too many keys for the hash index: " + keys);
        }
        return (int)wanted;
    }
}
