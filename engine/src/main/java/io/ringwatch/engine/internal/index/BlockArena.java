package io.ringwatch.engine.internal.index;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap memory in blocks of 4-byte units carved from direct-memory chunks.
 * <p>
 * A block is named by a 32-bit reference, {@code chunkIndex << unitBits | offset / 4}, read as
 * unsigned; 0 is null. Blocks up to {@value #EXACT_UNITS} units (4 KiB) are sized exactly (a node
 * wastes under 4 bytes, 1.5 on average against 3.5 with 8-byte units: issue 16 counts bytes per
 * key); larger ones are rounded up to one of eight sizes per power of two (at most an
 * eighth wasted). A block keeps its length for the life of the arena (blocks are never split or
 * merged) and starts, at offset 0, with a {@link SeqLock} version word that only changes by
 * increments, also across free and reuse. Chunks are never released while the arena lives, so a
 * reference a reader holds, however stale, always names mapped memory that starts a block of the
 * same length; the version tells the reader whether it may trust what it read.
 * <p>
 * Allocation and freeing: the writer thread only; freed blocks go to a free list per length that
 * is linked through the blocks themselves. An allocation takes a free block of its own length, or
 * failing that one at most an eighth longer, before it carves new memory, so values that change
 * size a little reuse each other's blocks. {@link #buffer}, {@link #offset} and
 * {@link #blockLength}: any thread. Heap allocation happens only when a chunk is added. A new chunk
 * is zeroed direct memory, made here or, during recovery, ahead on another thread
 * ({@link ChunkPrefault}).
 * <p>
 * Limit: the references address 2^32 units, 16 GiB of direct memory per arena. Blocks start on
 * 4-byte boundaries, so an owner's long fields may straddle an 8-byte boundary: they are read and
 * written plainly under the {@link SeqLock}, never atomically.
 */
final class BlockArena implements AutoCloseable
{
    /** Offset of the int block length in units, written once when the block is carved. */
    static final int UNITS_OFFSET = 4;
    /** Offset of the int block state: {@link #FREE}, or the owner's non-zero data while live. */
    static final int STATE_OFFSET = 8;
    /** Offset of the free-list link while a block is free; the owner's data otherwise. */
    static final int FREE_NEXT_OFFSET = 12;
    /** State of a free block. */
    static final int FREE = 0;
    /** Bytes of one unit, the granularity of block lengths and references. */
    static final int UNIT = 4;
    /** Largest block, in bytes. */
    static final long MAX_BLOCK = 1L << 30;

    /** Blocks up to this many units are sized exactly; one free list per length. */
    static final int EXACT_UNITS = 1024;
    private static final int UNIT_SHIFT = 2;
    /** Room for the version, length, state and free-list link words. */
    private static final int MIN_UNITS = 4;
    /** Sizes per power of two above {@link #EXACT_UNITS}. */
    private static final int STEPS_SHIFT = 3;
    private static final int EXACT_SHIFT = 10;
    private static final int CLASS_COUNT =
        EXACT_UNITS + 1 + ((30 - UNIT_SHIFT - EXACT_SHIFT + 1) << STEPS_SHIFT);

    private final int chunkShift;
    private final int unitBits;
    private final int unitMask;
    private final int maxChunks;
    private final int[] freeHeads = new int[CLASS_COUNT];
    private ByteBuffer[] memory = new ByteBuffer[8];
    private volatile UnsafeBuffer[] chunks = new UnsafeBuffer[8];
    private int chunkCount = 1;
    private int carveChunk;
    private int carvePosition;
    private volatile long reservedBytes;
    /** Chunks made ahead on another thread while recovery fills the index; null otherwise. */
    private ChunkPrefault prefault;

    /**
     * @param chunkShift log2 of the size of an ordinary chunk, 12 to 30; larger blocks get a
     *                   chunk each.
     */
    BlockArena(final int chunkShift)
    {
        this.chunkShift = chunkShift;
        unitBits = chunkShift - UNIT_SHIFT;
        unitMask = (1 << unitBits) - 1;
        maxChunks = (int)Math.min(1L << 30, 1L << (32 - unitBits));
        carvePosition = 1 << chunkShift;
    }

    /**
     * Length of the block that holds {@code length} bytes: a whole number of units, exact up to
     * {@value #EXACT_UNITS} units, then one of eight sizes per power of two.
     *
     * @param length bytes needed, at most {@link #MAX_BLOCK}.
     * @return the block length in bytes.
     */
    static long blockLengthFor(final long length)
    {
        if (length > MAX_BLOCK)
        {
            throw new IllegalStateException("block too large: " + length);
        }
        final long units = Math.max(MIN_UNITS, (length + UNIT - 1) >>> UNIT_SHIFT);
        if (units <= EXACT_UNITS)
        {
            return units << UNIT_SHIFT;
        }
        final int step = 63 - Long.numberOfLeadingZeros(units) - STEPS_SHIFT;
        final long rounded = ((units + (1L << step) - 1) >>> step) << step;
        return rounded << UNIT_SHIFT;
    }

    /**
     * Allocates a block of a length from {@link #blockLengthFor}, or of a longer free one when its
     * length's list is empty; its version word keeps counting from where the previous user left it.
     *
     * @param length block length in bytes, from {@link #blockLengthFor}.
     * @return reference to the block, whose {@link #blockLength} may exceed {@code length}.
     */
    int allocate(final long length)
    {
        final int units = (int)(length >>> UNIT_SHIFT);
        final int wanted = classOf(units);
        final int reuseLimit = classOf((int)(blockLengthFor(Math.min(MAX_BLOCK, length + (length >>> 3))) >>> UNIT_SHIFT));
        for (int c = wanted; c <= reuseLimit; c++)
        {
            final int head = freeHeads[c];
            if (head != 0)
            {
                freeHeads[c] = buffer(head).getInt(offset(head) + FREE_NEXT_OFFSET);
                return head;
            }
        }
        if (length > 1L << chunkShift)
        {
            final int chunk = addChunk((int)length);
            return carve(chunk, 0, units);
        }
        if (carvePosition + length > 1L << chunkShift)
        {
            freeCarveTail();
            carveChunk = addChunk(1 << chunkShift);
            carvePosition = 0;
        }
        final int ref = carve(carveChunk, carvePosition, units);
        carvePosition += (int)length;
        return ref;
    }

    /**
     * Starts freeing a block: its version turns odd, so from now on no reader completes a read of
     * it. The caller unlinks it and then calls {@link #completeFree}.
     *
     * @param ref a live block.
     */
    void beginFree(final int ref)
    {
        SeqLock.beginWrite(buffer(ref), offset(ref));
    }

    /**
     * Marks a block begun by {@link #beginFree} free, links it into its free list and makes its
     * version even again.
     *
     * @param ref the block.
     */
    void completeFree(final int ref)
    {
        final UnsafeBuffer buffer = buffer(ref);
        final int offset = offset(ref);
        final int c = classOf(buffer.getInt(offset + UNITS_OFFSET));
        buffer.putInt(offset + STATE_OFFSET, FREE);
        buffer.putInt(offset + FREE_NEXT_OFFSET, freeHeads[c]);
        freeHeads[c] = ref;
        SeqLock.endWrite(buffer, offset);
    }

    /**
     * @param ref a block reference.
     * @return the chunk buffer holding it.
     */
    UnsafeBuffer buffer(final int ref)
    {
        return chunks[ref >>> unitBits];
    }

    /**
     * @param ref a block reference.
     * @return the block's offset in its chunk buffer.
     */
    int offset(final int ref)
    {
        return (ref & unitMask) << UNIT_SHIFT;
    }

    /**
     * @param buffer chunk holding the block.
     * @param offset of the block.
     * @return the block length in bytes, stable for the life of the arena.
     */
    static int blockLength(final UnsafeBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + UNITS_OFFSET) << UNIT_SHIFT;
    }

    /**
     * @return the size of an ordinary chunk, in bytes.
     */
    int chunkSize()
    {
        return 1 << chunkShift;
    }

    /**
     * Takes new chunks from {@code source} while it has them ready; null stops. Writer thread only.
     *
     * @param source chunks made ahead, or null.
     */
    void prefault(final ChunkPrefault source)
    {
        prefault = source;
    }

    /**
     * @return whether new chunks are taken from a {@link ChunkPrefault}; writer thread only.
     */
    boolean isPrefaulted()
    {
        return prefault != null;
    }

    /**
     * @return bytes of direct memory held; any thread.
     */
    long reservedBytes()
    {
        return reservedBytes;
    }

    /**
     * Returns all chunks to the operating system. No thread may use the arena afterwards.
     */
    public void close()
    {
        for (int i = 1; i < chunkCount; i++)
        {
            BufferUtil.free(memory[i]);
            memory[i] = null;
        }
        chunks = new UnsafeBuffer[0];
        chunkCount = 1;
        reservedBytes = 0;
    }

    /** Free-list index of a block length in units: one per exact length, then eight per doubling. */
    private static int classOf(final int units)
    {
        if (units <= EXACT_UNITS)
        {
            return units;
        }
        final int log = 31 - Integer.numberOfLeadingZeros(units);
        final int step = log - STEPS_SHIFT;
        final int sub = ((units + (1 << step) - 1) >>> step) - (1 << STEPS_SHIFT);
        return EXACT_UNITS + 1 + ((log - EXACT_SHIFT) << STEPS_SHIFT) + sub;
    }

    private int carve(final int chunk, final int offset, final int units)
    {
        // fresh direct memory is zeroed, so the version starts at 0 and the state at FREE
        chunks[chunk].putInt(offset + UNITS_OFFSET, units);
        return chunk << unitBits | offset >>> UNIT_SHIFT;
    }

    /** Hands the unused end of the carving chunk to the free lists so no space is stranded. */
    private void freeCarveTail()
    {
        if (carveChunk == 0)
        {
            return;
        }
        int remaining = ((1 << chunkShift) - carvePosition) >>> UNIT_SHIFT;
        while (remaining >= MIN_UNITS)
        {
            final int units = Math.min(EXACT_UNITS, remaining);
            final int ref = carve(carveChunk, carvePosition, units);
            chunks[carveChunk].putInt(offset(ref) + FREE_NEXT_OFFSET, freeHeads[units]);
            freeHeads[units] = ref;
            carvePosition += units << UNIT_SHIFT;
            remaining -= units;
        }
    }

    private int addChunk(final int size)
    {
        if (chunkCount == maxChunks)
        {
            throw new IllegalStateException("off-heap index chunk limit reached: " + maxChunks);
        }
        final ByteBuffer ahead = prefault == null ? null : prefault.take(size);
        final ByteBuffer direct = ahead != null ? ahead : ByteBuffer.allocateDirect(size);
        final int index = chunkCount;
        if (index == memory.length)
        {
            memory = Arrays.copyOf(memory, index * 2);
        }
        memory[index] = direct;
        UnsafeBuffer[] current = chunks;
        if (index == current.length)
        {
            current = Arrays.copyOf(current, index * 2);
        }
        current[index] = new UnsafeBuffer(direct);
        // published before any reference inside the chunk can be
        chunks = current;
        chunkCount = index + 1;
        reservedBytes += size;
        return index;
    }
}
