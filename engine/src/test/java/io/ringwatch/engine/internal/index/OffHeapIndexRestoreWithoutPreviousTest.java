package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OffHeapIndex#restoreWithoutPrevious} builds exactly the index {@link OffHeapIndex#restore}
 * builds from the same changes: new keys, values that fit their node and values that do not, a key
 * re-created (a new createRevision) with or without a delete between, leases on and off, and
 * metadata wide enough for the node's wide form (the dumps show state, not whether a node was
 * updated in place or replaced, so the createRevision it reads in place is checked on its own
 * against the node's copy). The seed is in every assertion message.
 */
class OffHeapIndexRestoreWithoutPreviousTest
{
    private static final int KEYS = 40;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 16})
    void buildsTheIndexARestoreBuilds(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] createRevision = new long[KEYS];
        final long[] version = new long[KEYS];
        final IndexEntry prev = new IndexEntry();
        try (OffHeapIndex restored = new OffHeapIndex(16); OffHeapIndex replayed = new OffHeapIndex(16))
        {
            long revision = 0;
            for (int step = 0; step < 20_000; step++)
            {
                final int k = random.nextInt(KEYS);
                final UnsafeBuffer key = key(k);
                // now and then a jump that only the wide form holds (a createRevision far behind, a large version)
                revision += random.nextInt(50) == 0 ? 1L << 33 : 1;
                if (createRevision[k] != 0 && random.nextInt(10) == 0)
                {
                    restored.remove(key, 0, key.capacity(), prev);
                    replayed.remove(key, 0, key.capacity(), prev);
                    createRevision[k] = 0;
                    continue;
                }
                if (createRevision[k] == 0 || random.nextInt(20) == 0)
                {
                    createRevision[k] = revision;
                    version[k] = 0;
                }
                version[k] += random.nextInt(30) == 0 ? 1L << 40 : 1;
                final UnsafeBuffer value = new UnsafeBuffer(new byte[random.nextInt(4) == 0 ? random.nextInt(300) : 100]);
                value.setMemory(0, value.capacity(), (byte)step);
                final long lease = random.nextInt(5) == 0 ? 1 + random.nextInt(3) : 0;
                restored.restore(key, 0, key.capacity(), value, 0, value.capacity(), lease,
                    createRevision[k], revision, version[k], prev);
                replayed.restoreWithoutPrevious(key, 0, key.capacity(), value, 0, value.capacity(), lease,
                    createRevision[k], revision, version[k]);
                if (step % 2_000 == 0)
                {
                    assertEquals(IndexDump.dump(restored), IndexDump.dump(replayed), "seed " + seed + ", step " + step);
                }
            }
            assertEquals(IndexDump.dump(restored), IndexDump.dump(replayed), "seed " + seed);
            assertEquals(restored.size(), replayed.size(), "seed " + seed);
        }
    }

    @Test
    void aNodesCreateRevisionReadInPlaceIsTheOneItsCopyReports()
    {
        final UnsafeBuffer key = key(7);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[33]);
        final IndexEntry copy = new IndexEntry();
        final long far = 1L << 40;
        // narrow and wide forms, with and without a lease, at the lowest and a tall level
        final long[][] cases = {{5, 9, 3, 0, 1}, {5, 9, 3, 77, 1}, {5, far, 3, 0, 3}, {5, far, 3, 77, 3}, {5, 9, far, 77, 12}};
        try (BlockArena arena = new BlockArena(16))
        {
            for (final long[] c : cases)
            {
                final int level = (int)c[4];
                final long createRevision = c[0];
                final long modRevision = c[1];
                final long version = c[2];
                final long lease = c[3];
                final int node = arena.allocate(BlockArena.blockLengthFor(
                    Nodes.nodeLength(level, key.capacity(), value.capacity(), lease, Nodes.wide(createRevision, modRevision, version))));
                final UnsafeBuffer buffer = arena.buffer(node);
                final int offset = arena.offset(node);
                Nodes.write(buffer, offset, level, key, 0, key.capacity(), value, 0, value.capacity(), lease,
                    createRevision, modRevision, version);
                Nodes.copyEntry(buffer, offset, copy);
                assertEquals(createRevision, copy.createRevision());
                assertEquals(copy.createRevision(), Nodes.createRevision(buffer, offset), Arrays.toString(c));
            }
        }
    }

    @Test
    void badMetadataIsRefusedAndChangesNothing()
    {
        try (OffHeapIndex index = new OffHeapIndex(16))
        {
            final UnsafeBuffer key = key(1);
            final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
            index.restoreWithoutPrevious(key, 0, key.capacity(), value, 0, 8, 0, 5, 5, 1);
            final var before = IndexDump.dump(index);
            assertThrows(IndexArgumentException.class,
                () -> index.restoreWithoutPrevious(key, 0, key.capacity(), value, 0, 8, 0, 7, 6, 1), "createRevision after modRevision");
            assertThrows(IndexArgumentException.class,
                () -> index.restoreWithoutPrevious(key, 0, key.capacity(), value, 0, 8, 0, 5, 6, 0), "version 0");
            assertEquals(before, IndexDump.dump(index));
        }
    }

    private static UnsafeBuffer key(final int k)
    {
        return new UnsafeBuffer(("k/" + k).getBytes(StandardCharsets.UTF_8));
    }
}
