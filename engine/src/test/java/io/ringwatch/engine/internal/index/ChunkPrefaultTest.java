package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkPrefault} hands the arena zeroed chunks of its ordinary size made on its own thread,
 * an index filled with it is the index filled without it, and its close leaves no thread, no
 * attachment and no chunk behind.
 */
class ChunkPrefaultTest
{
    private static final long HANG_GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void anIndexFilledWithChunksMadeAheadEqualsOneFilledWithout()
    {
        try (OffHeapIndex plain = new OffHeapIndex(16); OffHeapIndex prefaulted = new OffHeapIndex(16))
        {
            try (ChunkPrefault prefault = prefaulted.prefaultChunks())
            {
                fill(prefaulted);
                assertTrue(prefault.isThreadAlive());
            }
            fill(plain);
            // far more than READY_CHUNKS chunks of 64 KiB: most came from the thread or the arena's own allocations
            assertTrue(prefaulted.offHeapBytes() > 30L * 65_536, "the fill took many chunks: " + prefaulted.offHeapBytes());
            assertEquals(IndexDump.dump(plain), IndexDump.dump(prefaulted));
        }
    }

    @Test
    void aReadyChunkIsZeroedAndOfTheOrdinarySize()
    {
        final BlockArena arena = new BlockArena(16);
        final ChunkPrefault prefault = new ChunkPrefault(arena, arena.chunkSize());
        arena.prefault(prefault);
        try
        {
            assertNull(prefault.take(arena.chunkSize() * 2), "a chunk of another size is never made ahead");
            final ByteBuffer chunk = takeWithin(prefault, arena.chunkSize());
            assertEquals(arena.chunkSize(), chunk.capacity());
            final UnsafeBuffer bytes = new UnsafeBuffer(chunk);
            for (int i = 0; i < chunk.capacity(); i += Long.BYTES)
            {
                assertEquals(0, bytes.getLong(i), "byte " + i);
            }
            BufferUtil.free(chunk);
        }
        finally
        {
            prefault.close();
            arena.close();
        }
    }

    @Test
    void closeStopsTheThreadDetachesItAndAllowsAnotherStart()
    {
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            final ChunkPrefault first = index.prefaultChunks();
            assertThrows(IllegalStateException.class, index::prefaultChunks, "one prefault at a time");
            first.close();
            assertFalse(first.isThreadAlive());
            first.close();
            try (ChunkPrefault second = index.prefaultChunks())
            {
                fill(index);
            }
            assertEquals(20_000, index.size());
        }
    }

    private static ByteBuffer takeWithin(final ChunkPrefault prefault, final int size)
    {
        final long deadline = System.nanoTime() + HANG_GUARD_NANOS;
        ByteBuffer chunk;
        while ((chunk = prefault.take(size)) == null)
        {
            assertTrue(System.nanoTime() < deadline, "no chunk made within the hang guard");
            Thread.onSpinWait();
        }
        return chunk;
    }

    private static void fill(final OffHeapIndex index)
    {
        final IndexEntry prev = new IndexEntry();
        final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
        for (int i = 0; i < 20_000; i++)
        {
            final UnsafeBuffer key = new UnsafeBuffer(("key/" + i).getBytes(StandardCharsets.UTF_8));
            value.putInt(0, i);
            index.restore(key, 0, key.capacity(), value, 0, value.capacity(), 1 + i, 1 + i, 1, prev);
        }
    }
}
