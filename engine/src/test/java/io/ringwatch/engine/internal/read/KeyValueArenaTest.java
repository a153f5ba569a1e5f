package io.ringwatch.engine.internal.read;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.ringwatch.engine.kv.KeyValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The arena's chunks: small for a small read, doubling, then all of the largest size, which with
 * G1 is one whole region (humongous, never copied by a young pause); every entry, large or small,
 * reads back as appended.
 */
class KeyValueArenaTest
{
    private static final long SEED = new Random().nextLong();
    private static final int HEADER = 2 * Integer.BYTES + 4 * Long.BYTES;

    @Test
    void aSmallReadAllocatesOneFourKibChunk()
    {
        final KeyValueArena arena = new KeyValueArena();
        for (int i = 0; i < 10; i++)
        {
            append(arena, "key-" + i, new byte[100], i + 1);
        }

        assertEquals(1, arena.chunkCount());
        assertEquals(4096, arena.chunkLength(0));
    }

    @Test
    void chunksDoubleUntilHalfTheLargestThenAreAllTheLargest()
    {
        final int largest = (64 << 10) - 16;
        final KeyValueArena arena = new KeyValueArena(largest);
        fill(arena, 8 * largest, 100);

        final List<Integer> lengths = lengths(arena);
        assertEquals(List.of(4096, 8192, 16384, largest, largest), lengths.subList(0, 5), "chunk lengths " + lengths);
        for (final int length : lengths.subList(3, lengths.size()))
        {
            assertEquals(largest, length, "chunk lengths " + lengths);
        }
    }

    @Test
    void aBigReadReachesThisJvmsUncopiedChunk()
    {
        final KeyValueArena arena = new KeyValueArena();
        fill(arena, 3L * UncopiedChunkSize.BYTES, 1000);

        final List<Integer> lengths = lengths(arena);
        assertEquals(UncopiedChunkSize.BYTES, lengths.get(lengths.size() - 1), "chunk lengths " + lengths);
        for (final int length : lengths)
        {
            // A chunk is either the largest or under half of it, never a copied young array near a region's size.
            assertTrue(length == UncopiedChunkSize.BYTES || length < UncopiedChunkSize.BYTES / 2, "chunk lengths " + lengths);
        }
    }

    @Test
    void withG1TheLargestChunkFillsExactlyOneRegion()
    {
        final HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        final long region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
        final boolean g1 = Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue());

        assertEquals((4 << 20) - 16, UncopiedChunkSize.forRegion(4 << 20, 16));
        assertEquals((32 << 20) - 16, UncopiedChunkSize.forRegion(32 << 20, 16));
        assertEquals(UncopiedChunkSize.FALLBACK_BYTES, UncopiedChunkSize.forRegion(0, 16));
        // At least half a region: humongous; with its header exactly one region: nothing wasted.
        assertTrue(UncopiedChunkSize.forRegion(1 << 20, 16) >= (1 << 20) / 2);
        if (g1)
        {
            final int header = UncopiedChunkSize.forRegion(region, 0) - UncopiedChunkSize.BYTES;
            assertTrue(header >= 12 && header <= 24, "array header " + header);
        }
        else
        {
            assertEquals(UncopiedChunkSize.FALLBACK_BYTES, UncopiedChunkSize.BYTES);
        }
    }

    @Test
    void anEntryLargerThanTheLargestChunkGetsAChunkOfItsOwn()
    {
        final int largest = (16 << 10) - 16;
        final KeyValueArena arena = new KeyValueArena(largest);
        final long small = append(arena, "small", new byte[10], 1);
        final byte[] big = new byte[5 * largest];
        new Random(SEED).nextBytes(big);
        final long large = append(arena, "large", big, 2);
        final long after = append(arena, "after", new byte[10], 3);

        assertEquals(HEADER + "large".length() + big.length, arena.chunkLength(1));
        assertArrayEquals(big, arena.keyValue(large).value(), "seed " + SEED);
        assertEquals("small", new String(arena.keyValue(small).key(), StandardCharsets.UTF_8));
        assertEquals(3, arena.keyValue(after).modRevision());
    }

    @Test
    void everyEntryReadsBackAsAppendedAcrossChunks()
    {
        final Random random = new Random(SEED);
        final KeyValueArena arena = new KeyValueArena((32 << 10) - 16);
        final List<byte[]> values = new ArrayList<>();
        final List<Long> addresses = new ArrayList<>();
        for (int i = 0; i < 5_000; i++)
        {
            // Now and then a value larger than any chunk.
            final byte[] value = new byte[random.nextInt(50) == 0 ? 40_000 + random.nextInt(9_000) : random.nextInt(300)];
            random.nextBytes(value);
            values.add(value);
            addresses.add(append(arena, String.format("k%06d", i), value, i + 1));
        }

        assertTrue(arena.chunkCount() > 20, "chunks " + arena.chunkCount());
        for (int i = 0; i < values.size(); i++)
        {
            final KeyValue kv = arena.keyValue(addresses.get(i));
            assertEquals(String.format("k%06d", i), new String(kv.key(), StandardCharsets.UTF_8), "seed " + SEED);
            assertArrayEquals(values.get(i), kv.value(), "seed " + SEED);
            assertEquals(i + 1, kv.modRevision());
            if (i > 0)
            {
                assertTrue(arena.compareKeys(addresses.get(i - 1), addresses.get(i)) < 0);
            }
        }
    }

    private static void fill(final KeyValueArena arena, final long bytes, final int valueLength)
    {
        final byte[] value = new byte[valueLength];
        long appended = 0;
        for (int i = 0; appended < bytes; i++)
        {
            final String key = "key-" + i;
            append(arena, key, value, i + 1);
            appended += HEADER + key.length() + valueLength;
        }
    }

    private static List<Integer> lengths(final KeyValueArena arena)
    {
        final Integer[] lengths = new Integer[arena.chunkCount()];
        for (int i = 0; i < lengths.length; i++)
        {
            lengths[i] = arena.chunkLength(i);
        }
        return Arrays.asList(lengths);
    }

    private static long append(final KeyValueArena arena, final String key, final byte[] value, final long revision)
    {
        final byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        return arena.append(new UnsafeBuffer(keyBytes), 0, keyBytes.length, new UnsafeBuffer(value), 0, value.length,
            revision, revision, 1, 0);
    }
}
