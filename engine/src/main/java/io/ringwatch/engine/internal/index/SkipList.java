package io.ringwatch.engine.internal.index;

import static io.ringwatch.engine.internal.index.Nodes.MAX_LEVEL;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Key order: a skip list of arena nodes with one writer and lock-free readers.
 * <p>
 * The writer changes a node's forward references only inside that node's seqlock, so readers use
 * optimistic lock coupling: they read a node's pointer, read the next node's version, then check
 * the first node is unchanged, which proves the next node was its successor at that moment. A
 * reader that finds a node changed restarts the descent from the last key it visited. Nodes
 * being removed or replaced stay odd (unreadable) until unlinked, and are freed only then.
 * <p>
 * Writer methods: the writer thread only. {@link #scan}: any thread. Nothing allocates.
 */
final class SkipList
{
    private final BlockArena arena;
    private final int head;
    private final int[] predecessors = new int[MAX_LEVEL];
    /** The last node at each level (the head where a level is empty): keys in ascending order append here. */
    private final int[] tails = new int[MAX_LEVEL];
    private long random = 0x2545_F491_4F6C_DD1DL;

    /**
     * Allocates the head node, which is never freed and sorts before every key.
     *
     * @param arena holding the nodes.
     */
    SkipList(final BlockArena arena)
    {
        this.arena = arena;
        head = arena.allocate(BlockArena.blockLengthFor(Nodes.nodeLength(MAX_LEVEL, 0, 0)));
        final UnsafeBuffer buffer = arena.buffer(head);
        final int offset = arena.offset(head);
        SeqLock.beginWrite(buffer, offset);
        Nodes.write(buffer, offset, MAX_LEVEL, null, 0, 0, null, 0, 0, 0, 0, 0, 0);
        SeqLock.endWrite(buffer, offset);
        Arrays.fill(tails, head);
    }

    /**
     * Draws a node level: level n+1 with probability 4^-n, so about 1.33 pointers per node.
     *
     * @return a level from 1 to {@link Nodes#MAX_LEVEL}.
     */
    int randomLevel()
    {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        return 1 + Math.min(Long.numberOfTrailingZeros(random | Long.MIN_VALUE) >> 1, MAX_LEVEL - 1);
    }

    /**
     * @return whether {@code key} sorts after every key in the list (true when it is empty); the
     * writer only. One comparison, with the last node.
     */
    boolean sortsAfterLast(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int last = tails[0];
        return last == head || Nodes.compareKey(arena.buffer(last), arena.offset(last), key, keyOffset, keyLength) < 0;
    }

    /**
     * Records, at every level, the last node whose key sorts before {@code key}; the writer only.
     * A key after every key present needs one comparison (with the last node), so keys inserted in
     * ascending order, as a snapshot loads them, cost no descent.
     */
    void findPredecessors(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final int last = tails[0];
        if (last != head && Nodes.compareKey(arena.buffer(last), arena.offset(last), key, keyOffset, keyLength) < 0)
        {
            System.arraycopy(tails, 0, predecessors, 0, MAX_LEVEL);
            return;
        }
        int node = head;
        for (int level = MAX_LEVEL - 1; level >= 0; level--)
        {
            while (true)
            {
                final int next = next(node, level);
                if (next == 0 ||
                    Nodes.compareKey(arena.buffer(next), arena.offset(next), key, keyOffset, keyLength) >= 0)
                {
                    break;
                }
                node = next;
            }
            predecessors[level] = node;
        }
    }

    /**
     * Links a new node after the predecessors found for its key; the writer only, while it holds
     * the node's seqlock.
     */
    void link(final int node, final int level)
    {
        for (int i = 0; i < level; i++)
        {
            final int next = next(predecessors[i], i);
            setNext(node, i, next);
            if (next == 0)
            {
                tails[i] = node;
            }
        }
        pointPredecessorsAt(node, level);
    }

    /**
     * Puts {@code fresh} where {@code old} stands; the writer only, holding both seqlocks, after
     * {@link #findPredecessors} for their key.
     */
    void replace(final int old, final int fresh, final int level)
    {
        for (int i = 0; i < level; i++)
        {
            setNext(fresh, i, next(old, i));
            if (tails[i] == old)
            {
                tails[i] = fresh;
            }
        }
        pointPredecessorsAt(fresh, level);
    }

    /**
     * Unlinks a node; the writer only, holding the node's seqlock, after
     * {@link #findPredecessors} for its key.
     */
    void unlink(final int node, final int level)
    {
        for (int i = level - 1; i >= 0; i--)
        {
            final int predecessor = predecessors[i];
            final UnsafeBuffer buffer = arena.buffer(predecessor);
            final int offset = arena.offset(predecessor);
            SeqLock.beginWrite(buffer, offset);
            buffer.putInt(offset + Nodes.nextOffset(i), next(node, i));
            SeqLock.endWrite(buffer, offset);
            if (tails[i] == node)
            {
                tails[i] = predecessor;
            }
        }
    }

    /**
     * Visits live entries with {@code from <= key < to} in ascending order; any thread.
     *
     * @param from  lower bound, inclusive; null for the first key.
     * @param to    upper bound, exclusive; null for none.
     * @param limit most entries to visit; 0 or less for no limit.
     * @param entry holder passed to the visitor, also carrying the scan position.
     * @return number of entries visited.
     */
    int scan(
        final DirectBuffer from, final int fromOffset, final int fromLength,
        final DirectBuffer to, final int toOffset, final int toLength,
        final int limit,
        final IndexVisitor visitor,
        final IndexEntry entry)
    {
        final ScanCursor cursor = entry.cursor();
        cursor.lastKeyLength = -1;
        int visited = 0;
        restart:
        while (true)
        {
            seek(cursor, from, fromOffset, fromLength);
            int node = cursor.node;
            int version = cursor.version;
            // The level-0 chain is in key order: once one entry is past the start, so is every later one.
            boolean started = false;
            while (true)
            {
                final UnsafeBuffer buffer = arena.buffer(node);
                final int offset = arena.offset(node);
                final int next = buffer.getInt(offset + Nodes.NEXT_OFFSET);
                if (!SeqLock.unchanged(buffer, offset, version))
                {
                    continue restart;
                }
                if (next == 0)
                {
                    entry.clear();
                    return visited;
                }
                final UnsafeBuffer nextBuffer = arena.buffer(next);
                final int nextOffset = arena.offset(next);
                final int nextVersion = SeqLock.readBegin(nextBuffer, nextOffset);
                if (!SeqLock.unchanged(buffer, offset, version) ||
                    !Nodes.readLive(nextBuffer, nextOffset, nextVersion, entry))
                {
                    continue restart;
                }
                node = next;
                version = nextVersion;
                if (!started && isBeforeStart(entry, cursor, from, fromOffset, fromLength))
                {
                    continue;
                }
                started = true;
                if (to != null && Keys.compare(entry.key(), 0, entry.keyLength(), to, toOffset, toLength) >= 0)
                {
                    entry.clear();
                    return visited;
                }
                cursor.lastKey.putBytes(0, entry.key(), 0, entry.keyLength());
                cursor.lastKeyLength = entry.keyLength();
                visited++;
                if (!visitor.visit(entry) || visited == limit)
                {
                    return visited;
                }
            }
        }
    }

    /**
     * Descends to the last node before the resume point: the scan's lower bound (inclusive)
     * at first, the last visited key (exclusive) after a restart. Leaves the node and its
     * validated version in the cursor.
     */
    private void seek(final ScanCursor cursor, final DirectBuffer from, final int fromOffset, final int fromLength)
    {
        final boolean resuming = cursor.lastKeyLength >= 0;
        final DirectBuffer bound = resuming ? cursor.lastKey : from;
        final int boundOffset = resuming ? 0 : fromOffset;
        final int boundLength = resuming ? cursor.lastKeyLength : fromLength;
        restart:
        while (true)
        {
            int node = head;
            int version = SeqLock.readBegin(arena.buffer(head), arena.offset(head));
            final int top = bound == null ? -1 : MAX_LEVEL - 1;
            for (int level = top; level >= 0; level--)
            {
                while (true)
                {
                    final UnsafeBuffer buffer = arena.buffer(node);
                    final int offset = arena.offset(node);
                    final int next = buffer.getInt(offset + Nodes.nextOffset(level));
                    if (!SeqLock.unchanged(buffer, offset, version))
                    {
                        continue restart;
                    }
                    if (next == 0)
                    {
                        break;
                    }
                    final UnsafeBuffer nextBuffer = arena.buffer(next);
                    final int nextOffset = arena.offset(next);
                    final int nextVersion = SeqLock.readBegin(nextBuffer, nextOffset);
                    if (!SeqLock.unchanged(buffer, offset, version) ||
                        !Nodes.wellFormed(nextBuffer, nextOffset))
                    {
                        continue restart;
                    }
                    final int order = Nodes.compareKey(nextBuffer, nextOffset, bound, boundOffset, boundLength);
                    if (!SeqLock.unchanged(nextBuffer, nextOffset, nextVersion))
                    {
                        continue restart;
                    }
                    if (order > 0 || (order == 0 && !resuming))
                    {
                        break;
                    }
                    node = next;
                    version = nextVersion;
                }
            }
            cursor.node = node;
            cursor.version = version;
            return;
        }
    }

    private static boolean isBeforeStart(
        final IndexEntry entry, final ScanCursor cursor,
        final DirectBuffer from, final int fromOffset, final int fromLength)
    {
        if (cursor.lastKeyLength >= 0)
        {
            return Keys.compare(entry.key(), 0, entry.keyLength(), cursor.lastKey, 0, cursor.lastKeyLength) <= 0;
        }
        return from != null && Keys.compare(entry.key(), 0, entry.keyLength(), from, fromOffset, fromLength) < 0;
    }

    private void pointPredecessorsAt(final int node, final int level)
    {
        int i = 0;
        while (i < level)
        {
            // one seqlock section per predecessor, however many levels it spans
            final int predecessor = predecessors[i];
            final UnsafeBuffer buffer = arena.buffer(predecessor);
            final int offset = arena.offset(predecessor);
            SeqLock.beginWrite(buffer, offset);
            do
            {
                buffer.putInt(offset + Nodes.nextOffset(i), node);
                i++;
            }
            while (i < level && predecessors[i] == predecessor);
            SeqLock.endWrite(buffer, offset);
        }
    }

    private int next(final int node, final int level)
    {
        return arena.buffer(node).getInt(arena.offset(node) + Nodes.nextOffset(level));
    }

    private void setNext(final int node, final int level, final int next)
    {
        arena.buffer(node).putInt(arena.offset(node) + Nodes.nextOffset(level), next);
    }
}
