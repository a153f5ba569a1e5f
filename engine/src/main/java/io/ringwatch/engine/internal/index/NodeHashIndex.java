package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;

/**
 * Point lookup from key to node: a {@link SlotTable} with tombstones (readers never see entries
 * move, as they would with backward-shift deletion), rebuilt into a new table when live entries
 * plus tombstones pass three quarters of it. The new table is published through a volatile field;
 * a reader still probing the old one keeps it reachable, and its memory is released by the
 * garbage collector once no reader holds it, so no reader ever probes freed memory.
 * <p>
 * Mutators: the writer thread only. {@link #get}: any thread. Allocation: a table per rebuild
 * (amortised over the inserts that caused it); none per operation.
 */
final class NodeHashIndex
{
    private static final int MIN_CAPACITY = 16;
    /** Largest table: its bytes must fit one direct buffer. */
    private static final int MAX_CAPACITY = 1 << 28;

    private final BlockArena arena;
    private volatile SlotTable table;
    private int live;
    private int tombstones;

    /**
     * @param arena         holding the nodes.
     * @param expectedKeys  keys to hold without a rebuild.
     */
    NodeHashIndex(final BlockArena arena, final int expectedKeys)
    {
        this.arena = arena;
        this.table = new SlotTable(capacityFor(expectedKeys));
    }

    /**
     * Finds the slot naming the node for a key; the writer thread only. A slot whose tag differs
     * is passed over without loading its node.
     *
     * @return the slot, or -1 when the key is absent.
     */
    int findSlot(final long hash, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final SlotTable t = table;
        final int tag = SlotTable.tag(hash);
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

    /**
     * @return the node a slot from {@link #findSlot} names; the writer thread only.
     */
    int nodeAt(final int slot)
    {
        return SlotTable.node(table.get(slot));
    }

    /**
     * Rebuilds the table first if one more insert would fill it past three quarters, so that
     * {@link #insert} cannot fail half way; the writer thread only. Allocates only when it rebuilds.
     */
    void ensureRoomForInsert()
    {
        if (!hasRoomFor(1))
        {
            rebuild(capacityFor(live + 1));
        }
    }

    /**
     * @return whether {@code more} inserts fit without a rebuild; the writer thread only.
     */
    boolean hasRoomFor(final int more)
    {
        return (live + tombstones + (long)more) * 4L <= table.capacity() * 3L;
    }

    /**
     * Rebuilds the table now, if needed, so that {@code keys} live keys in all (at most half the
     * largest table) fit without another rebuild; the writer thread only. Allocates only when it
     * rebuilds.
     */
    void reserve(final long keys)
    {
        final int capacity = capacityFor((int)Math.min(keys, MAX_CAPACITY / 2));
        if (capacity > table.capacity())
        {
            rebuild(capacity);
        }
    }

    /**
     * Loads the slot a lookup of {@code hash} starts at, so that a later probe finds it cached;
     * the writer thread only.
     *
     * @return the slot's content, for {@link #touchNode}.
     */
    long touchHome(final long hash)
    {
        final SlotTable t = table;
        return t.get(t.home(SlotTable.tag(hash)));
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
        pending.sortByHome(table.capacity());
        final long[] contents = pending.contents();
        for (int i = 0; i < pending.count(); i++)
        {
            insertTagged(SlotTable.tagOf(contents[i]), SlotTable.node(contents[i]));
        }
        pending.clear();
    }

    /**
     * Adds a node for a key known to be absent, after {@link #ensureRoomForInsert}; the writer
     * thread only.
     */
    void insert(final long hash, final int node)
    {
        insertTagged(SlotTable.tag(hash), node);
    }

    private void insertTagged(final int tag, final int node)
    {
        final SlotTable t = table;
        int slot = t.home(tag);
        long content;
        while ((content = t.get(slot)) != SlotTable.EMPTY && content != SlotTable.TOMBSTONE)
        {
            slot = t.next(slot);
        }
        if (content == SlotTable.TOMBSTONE)
        {
            tombstones--;
        }
        t.set(slot, SlotTable.slotFor(tag, node));
        live++;
    }

    /**
     * Points a slot from {@link #findSlot} at a node that replaces its key's old node; the
     * writer thread only.
     */
    void replace(final int slot, final int node)
    {
        final SlotTable t = table;
        t.set(slot, SlotTable.slotFor(SlotTable.tagOf(t.get(slot)), node));
    }

    /**
     * Empties a slot from {@link #findSlot}; the writer thread only.
     */
    void remove(final int slot)
    {
        table.set(slot, SlotTable.TOMBSTONE);
        live--;
        tombstones++;
    }

    /**
     * Copies the entry for a key into {@code into}; any thread, concurrent with the writer.
     * The answer was true at some moment during the call.
     *
     * @return whether the key was present.
     */
    boolean get(
        final long hash, final DirectBuffer key, final int keyOffset, final int keyLength, final IndexEntry into)
    {
        final int tag = SlotTable.tag(hash);
        while (true)
        {
            final SlotTable t = table;
            int slot = t.home(tag);
            for (int probes = 0; probes < t.capacity(); probes++)
            {
                long content = t.get(slot);
                if (content == SlotTable.EMPTY)
                {
                    break;
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
                    // the node may have been replaced or removed after we read the slot: the slot
                    // changes before the old node is freed, so re-reading it shows the successor
                    final long again = t.get(slot);
                    if (again == content)
                    {
                        break;
                    }
                    content = again;
                }
                slot = t.next(slot);
            }
            // a miss in a table that was replaced meanwhile proves nothing: retry in the new one
            if (table == t)
            {
                into.clear();
                return false;
            }
        }
    }

    /**
     * @return bytes of direct memory held by the current table; any thread.
     */
    long bytes()
    {
        return table.bytes();
    }

    /**
     * Frees the current table's memory; no thread may use the index afterwards.
     */
    void close()
    {
        table.free();
    }

    /** Copies every live slot into a table of {@code capacity} slots; slots carry their home, so no node is read. */
    private void rebuild(final int capacity)
    {
        final SlotTable old = table;
        final SlotTable fresh = new SlotTable(capacity);
        for (int i = 0; i < old.capacity(); i++)
        {
            final long content = old.get(i);
            if (SlotTable.holdsNode(content))
            {
                int slot = fresh.home(SlotTable.tagOf(content));
                while (fresh.get(slot) != SlotTable.EMPTY)
                {
                    slot = fresh.next(slot);
                }
                fresh.set(slot, content);
            }
        }
        tombstones = 0;
        table = fresh;
    }

    /** Twice the keys, rounded up to a power of two: a table filled to between a quarter and a half. */
    private static int capacityFor(final int keys)
    {
        final long wanted = Math.max(MIN_CAPACITY, 2L * keys);
        if (wanted > MAX_CAPACITY)
        {
            throw new IllegalStateException("too many keys for the hash index: " + keys);
        }
        return 1 << (64 - Long.numberOfLeadingZeros(wanted - 1));
    }
}
