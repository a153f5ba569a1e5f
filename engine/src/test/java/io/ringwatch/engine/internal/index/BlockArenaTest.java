package io.ringwatch.engine.internal.index;

import static io.ringwatch.engine.internal.index.TestBytes.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The arena's 4-byte units: exact block lengths up to 4 KiB, blocks carved back to back on 4-byte
 * (not 8-byte) boundaries, nodes whose long fields straddle an 8-byte boundary, and reuse of a
 * freed block by a node of its length.
 */
class BlockArenaTest
{
    @Test
    void blocksUpTo4KiBAreSizedToTheNextMultipleOf4Bytes()
    {
        assertEquals(16, BlockArena.blockLengthFor(1), "the smallest block holds the arena's four words");
        assertEquals(156, BlockArena.blockLengthFor(153));
        assertEquals(156, BlockArena.blockLengthFor(156));
        assertEquals(160, BlockArena.blockLengthFor(157));
        assertEquals(4096, BlockArena.blockLengthFor(4093));
        assertEquals(4096 + 512, BlockArena.blockLengthFor(4097), "above 4 KiB, eight sizes per power of two");
    }

    @Test
    void blocksAreCarvedBackToBackOn4ByteBoundariesAndKeepTheirLength()
    {
        try (BlockArena arena = new BlockArena(16))
        {
            final int first = arena.allocate(BlockArena.blockLengthFor(162));
            final int second = arena.allocate(BlockArena.blockLengthFor(162));

            assertEquals(first + 164 / BlockArena.UNIT, second, "references count 4-byte units");
            assertEquals(arena.offset(first) + 164, arena.offset(second));
            assertEquals(4, arena.offset(second) % 8, "the second block starts off an 8-byte boundary");
            assertEquals(164, BlockArena.blockLength(arena.buffer(first), arena.offset(first)));
            assertEquals(164, BlockArena.blockLength(arena.buffer(second), arena.offset(second)));
        }
    }

    @Test
    void aNodeOffAn8ByteBoundaryRoundTripsItsLongFields()
    {
        try (BlockArena arena = new BlockArena(16))
        {
            final UnsafeBuffer key = utf8("straddling-key");
            final UnsafeBuffer value = utf8("value");
            final long needed = Nodes.nodeLength(2, key.capacity(), value.capacity(), 77, false);
            arena.allocate(BlockArena.blockLengthFor(36));
            final int ref = arena.allocate(BlockArena.blockLengthFor(needed));
            final UnsafeBuffer buffer = arena.buffer(ref);
            final int offset = arena.offset(ref);
            Nodes.write(buffer, offset, 2, key, 0, key.capacity(), value, 0, value.capacity(), 77,
                5, 0x1_0000_0004L, 3);
            final IndexEntry entry = new IndexEntry();
            Nodes.copyEntry(buffer, offset, entry);

            assertEquals(4, offset % 8);
            assertArrayEquals("straddling-key".getBytes(), entry.keyBytes());
            assertEquals(0x1_0000_0004L, entry.modRevision());
            assertEquals(5, entry.createRevision());
            assertEquals(3, entry.version());
            assertEquals(77, entry.lease());
        }
    }

    @Test
    void aFreedBlockIsReusedByTheNextBlockOfItsLengthBeforeNewMemoryIsCarved()
    {
        try (BlockArena arena = new BlockArena(16))
        {
            final long length = BlockArena.blockLengthFor(162);
            final int freed = arena.allocate(length);
            final int kept = arena.allocate(length);
            final long reserved = arena.reservedBytes();
            arena.beginFree(freed);
            arena.completeFree(freed);

            final int reused = arena.allocate(length);

            assertEquals(freed, reused);
            assertNotEquals(kept, reused);
            assertEquals(reserved, arena.reservedBytes());
        }
    }
}
