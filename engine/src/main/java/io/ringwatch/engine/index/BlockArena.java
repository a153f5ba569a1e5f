package io.ringwatch.engine.index;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap memory in power-of-two blocks carved from direct-memory chunks.
 * <p>
 * An address is {@code chunkIndex << 32 | offset}; 0 is null. A block keeps its size class for the
 * life of the arena (blocks are never split or merged) and starts, at offset 0, with a
 * {@link SeqLock} version word that only ever increases, also across free and reuse. Chunks are
 * never released while the arena lives, so an address a reader holds, however stale, is always
 * mapped and always the start of a block of the same size; the version tells the reader whether
 * it may trust what it read.
 * <p>
 * Allocation and freeing: the writer thread only; freed blocks go to a per-class free list that is
 * linked through the blocks themselves. {@link #buffer}, {@link #offset} and
 * {@link #blockSize}: any thread. Heap allocation happens only when a chunk is added.
 */
final class BlockArena implements AutoCloseable
{
    /** Offset of the int log2 of the block size, written once when the block is carved. */
    static final int SHIFT_OFFSET = 8;
    /** Offset of the int block state, {@link #LIVE} or {@link #FREE}. */
    static final int STATE_OFFSET = 12;
    /** Offset of the free-list link while a block is free; the owner's data otherwise. */
    static final int FREE_NEXT_OFFSET = 16;

    static final int FREE = 0;
    static final int LIVE = 1;

    static final int MIN_SHIFT = 6;
    static final int MAX_SHIFT = 30;
    /** Chunk indices stay below 2^20 so the top 12 bits of an address are free for hash tags. */
    static final int MAX_CHUNKS = 1 << 20;

    private static final long OFFSET_MASK = 0xFFFF_FFFFL;

    private final int chunkShift;
    private final long[] freeHeads = new long[MAX_SHIFT + 1];
    private ByteBuffer[] memory = new ByteBuffer[8];
    private volatile UnsafeBuffer[] chunks = new UnsafeBuffer[8];
    private int chunkCount = 1;
    private int carveChunk;
    private int carvePosition;
    private volatile long reservedBytes;

    /**
     * @param chunkShift log2 of the size of an ordinary chunk; larger blocks get a chunk each.
     */
    BlockArena(final int chunkShift)
    {
        this.chunkShift = chunkShift;
        carvePosition = 1 << chunkShift;
    }

    /**
     * Smallest size class holding {@code length} bytes.
     *
     * @param length bytes needed, header included; at most {@code 1 << MAX_SHIFT}.
     * @return log2 of the block size.
     */
    static int shiftFor(final long length)
    {
        final int shift = 64 - Long.numberOfLeadingZeros(Math.max(length, 1L << MIN_SHIFT) - 1);
        if (shift > MAX_SHIFT)
        {
            throw new IllegalStateException("block too large: " + length);
        }
        return shift;
    }

    /**
     * Allocates a block; its version word keeps counting from where the previous user left it.
     *
     * @param shift log2 of the block size.
     * @return address of the block.
     */
    long allocate(final int shift)
    {
        final long head = freeHeads[shift];
        if (head != 0)
        {
            freeHeads[shift] = buffer(head).getLong(offset(head) + FREE_NEXT_OFFSET);
            return head;
        }
        if (shift > chunkShift)
        {
            final int chunk = addChunk(1 << shift);
            return carve(chunk, 0, shift);
        }
        final int size = 1 << shift;
        if (carvePosition + size > 1 << chunkShift)
        {
            freeCarveTail();
            carveChunk = addChunk(1 << chunkShift);
            carvePosition = 0;
        }
        final long address = carve(carveChunk, carvePosition, shift);
        carvePosition += size;
        return address;
    }

    /**
     * Starts freeing a block: its version turns odd, so from now on no reader completes a read of
     * it. The caller unlinks it and then calls {@link #completeFree}.
     *
     * @param address of a live block.
     */
    void beginFree(final long address)
    {
        SeqLock.beginWrite(buffer(address), offset(address));
    }

    /**
     * Marks a block begun by {@link #beginFree} free, links it into its free list and makes its
     * version even again.
     *
     * @param address of the block.
     */
    void completeFree(final long address)
    {
        final UnsafeBuffer buffer = buffer(address);
        final int offset = offset(address);
        final int shift = buffer.getInt(offset + SHIFT_OFFSET);
        buffer.putInt(offset + STATE_OFFSET, FREE);
        buffer.putLong(offset + FREE_NEXT_OFFSET, freeHeads[shift]);
        freeHeads[shift] = address;
        SeqLock.endWrite(buffer, offset);
    }

    /**
     * @param address of a block.
     * @return the chunk buffer holding it.
     */
    UnsafeBuffer buffer(final long address)
    {
        return chunks[(int)(address >>> 32)];
    }

    /**
     * @param address of a block.
     * @return the block's offset in its chunk buffer.
     */
    static int offset(final long address)
    {
        return (int)(address & OFFSET_MASK);
    }

    /**
     * @param buffer chunk holding the block.
     * @param offset of the block.
     * @return the block size, stable for the life of the arena.
     */
    static int blockSize(final UnsafeBuffer buffer, final int offset)
    {
        return 1 << buffer.getInt(offset + SHIFT_OFFSET);
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

    private long carve(final int chunk, final int offset, final int shift)
    {
        // fresh direct memory is zeroed, so the version starts at 0
        chunks[chunk].putInt(offset + SHIFT_OFFSET, shift);
        return (long)chunk << 32 | offset;
    }

    /** Hands the unused end of the carving chunk to the free lists so no space is stranded. */
    private void freeCarveTail()
    {
        if (carveChunk == 0)
        {
            return;
        }
        int remaining = (1 << chunkShift) - carvePosition;
        while (remaining >= 1 << MIN_SHIFT)
        {
            final int shift = 31 - Integer.numberOfLeadingZeros(remaining);
            final long address = carve(carveChunk, carvePosition, shift);
            chunks[carveChunk].putLong(offset(address) + FREE_NEXT_OFFSET, freeHeads[shift]);
            freeHeads[shift] = address;
            carvePosition += 1 << shift;
            remaining -= 1 << shift;
        }
    }

    private int addChunk(final int size)
    {
        if (chunkCount == MAX_CHUNKS)
        {
            throw new IllegalStateException("off-heap index chunk limit reached");
        }
        final ByteBuffer direct = ByteBuffer.allocateDirect(size);
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
        // published before any address inside the chunk can be
        chunks = current;
        chunkCount = index + 1;
        reservedBytes += size;
        return index;
    }
}
