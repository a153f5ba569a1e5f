package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.RangeResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merge of a pinned read: scanned entries in key order, pre-images in the order kept, the
 * oldest pre-image of a key winning, "absent" removing a key, a limit's cut, against a TreeMap
 * model over random inputs large enough to cross the arena's chunks and the sort's runs.
 */
class ReadResultBuilderTest
{
    private static final long SEED = new Random().nextLong();

    private final OffHeapIndex index = new OffHeapIndex(1024);
    private final IndexEntry entry = new IndexEntry();

    @AfterEach
    void freeIndex()
    {
        index.close();
    }

    @Test
    void aLiveScanKeepsWhatItScannedAndTakesTheOldestPreImageOnlyForKeysItDidNotKeep()
    {
        final ReadResultBuilder builder = ReadResultBuilder.forLiveScan();
        scanned(builder, "a", "1", 1);
        scanned(builder, "c", "3", 3);
        // Kept for another read after this scan passed the keys: the scan's own entries win.
        preImage(builder, "a", null, 0);
        preImage(builder, "c", "newer-c", 5);
        preImage(builder, "b", "old-b", 1);
        preImage(builder, "b", "newer-b", 6);
        preImage(builder, "d", null, 0);
        // Created after the pin once the scan had passed it, changed again for another read.
        preImage(builder, "e", "created-later", 7);

        final RangeResult result = builder.build(4, 0);

        assertEquals(List.of("a=1", "b=old-b", "c=3"), render(result.kvs()));
    }

    @Test
    void oldestPreImageWinsAndAbsentRemovesTheKey()
    {
        final ReadResultBuilder builder = ReadResultBuilder.forPastRevision();
        scanned(builder, "a", "1", 1);
        scanned(builder, "c", "3", 3);
        preImage(builder, "c", "old-c", 2);
        preImage(builder, "c", "newer-c", 5);
        preImage(builder, "a", null, 0);
        preImage(builder, "b", "old-b", 1);
        preImage(builder, "d", null, 0);

        final RangeResult result = builder.build(9, 0);

        assertEquals(9, result.revision());
        assertFalse(result.more());
        assertEquals(List.of("b=old-b", "c=old-c"), render(result.kvs()));
    }

    @Test
    void limitCutsTheResultAndDropsPreImagesBeyondTheLastScannedKey()
    {
        final ReadResultBuilder builder = ReadResultBuilder.forPastRevision();
        scanned(builder, "a", "1", 1);
        scanned(builder, "b", "2", 1);
        scanned(builder, "c", "3", 1);
        builder.cutAtLastScanned();
        preImage(builder, "bb", "x", 1);
        preImage(builder, "d", "beyond", 1);

        final RangeResult result = builder.build(4, 2);

        assertTrue(result.more());
        assertEquals(List.of("a=1", "b=2"), render(result.kvs()));
    }

    @Test
    void resultIsUnmodifiableAndKeptWithoutACopy()
    {
        final ReadResultBuilder builder = ReadResultBuilder.forPastRevision();
        scanned(builder, "k", "v", 7);
        final RangeResult result = builder.build(7, 0);

        assertSame(result.kvs(), result.kvs());
        assertThrows(UnsupportedOperationException.class, () -> result.kvs().add(result.kvs().get(0)));
        assertThrows(IndexOutOfBoundsException.class, () -> result.kvs().get(1));
        final KeyValue kv = result.kvs().get(0);
        assertEquals(7, kv.modRevision());
        assertEquals(7, kv.createRevision());
        assertEquals(1, kv.version());
        assertEquals(kv, result.kvs().get(0));
    }

    @Test
    void aPackedResultHandedOverToAPastRevisionKeepsEveryEntryAndCopiesNothing()
    {
        final ReadResultBuilder first = ReadResultBuilder.forPastRevision();
        scanned(first, "a", "1", 1);
        scanned(first, "b", "x".repeat(6_000), 2);
        preImage(first, "c", "old-c", 1);
        final RangeResult present = first.build(5, 0);
        final KeyValue presentB = present.kvs().get(1);
        final ReadResultBuilder second = ((PackedKeyValues)present.kvs()).handOverToPastRevision();
        preImage(second, "a", null, 0);
        preImage(second, "d", "old-d", 1);
        preImage(second, "b", "old-b", 1);
        preImage(second, "b", "newer-b", 3);

        final RangeResult past = second.build(1, 0);

        assertEquals(List.of("b=old-b", "c=old-c", "d=old-d"), render(past.kvs()));
        assertEquals("x".repeat(6_000), presentB.valueAsString());
    }

    @Test
    void aPastRevisionOfAHandedOverResultMatchesOneBuiltFromCopies()
    {
        final Random random = new Random(SEED);
        final ReadResultBuilder first = ReadResultBuilder.forLiveScan();
        final ReadResultBuilder copied = ReadResultBuilder.forPastRevision();
        for (int i = 0; i < 20_000; i++)
        {
            final String value = "v" + random.nextInt(1000) + "x".repeat(random.nextInt(50) == 0 ? 9_000 : 20);
            scanned(first, String.format("key-%06d", 2 * i), value, 1);
            scanned(copied, String.format("key-%06d", 2 * i), value, 1);
        }
        final ReadResultBuilder handedOver = ((PackedKeyValues)first.build(5, 0).kvs()).handOverToPastRevision();
        for (int i = 0; i < 5_000; i++)
        {
            final String key = String.format("key-%06d", random.nextInt(40_000));
            final String value = random.nextInt(4) == 0 ? null : "old" + i;
            preImage(handedOver, key, value, 1);
            preImage(copied, key, value, 1);
        }

        assertEquals(render(copied.build(2, 0).kvs()), render(handedOver.build(2, 0).kvs()), "seed " + SEED);
    }

    @Test
    void aCountKeepsTheKeysOfAReadAndNoValue()
    {
        final Random random = new Random(SEED);
        final ReadResultBuilder read = ReadResultBuilder.forLiveScan();
        final ReadResultBuilder count = ReadResultBuilder.forLiveCount();
        for (int i = 0; i < 5_000; i++)
        {
            final String key = String.format("key-%06d", 2 * i);
            scanned(read, key, "v" + i, 1);
            scanned(count, key, "v" + i, 1);
        }
        for (int i = 0; i < 2_000; i++)
        {
            final String key = String.format("key-%06d", random.nextInt(10_000));
            final String value = random.nextInt(3) == 0 ? null : "old" + i;
            final long revision = random.nextInt(5) == 0 ? 3 : 1;
            preImage(read, key, value, revision);
            preImage(count, key, value, revision);
        }

        final List<KeyValue> kvs = read.build(2, 0).kvs();
        final List<KeyValue> counted = count.build(2, 0).kvs();

        assertEquals(kvs.size(), counted.size(), "seed " + SEED);
        for (int i = 0; i < kvs.size(); i++)
        {
            assertEquals(kvs.get(i).keyAsString(), counted.get(i).keyAsString(), "seed " + SEED);
            assertEquals(kvs.get(i).modRevision(), counted.get(i).modRevision());
            assertEquals(0, counted.get(i).value().length);
        }
    }

    @Test
    void randomMergesMatchTheModel()
    {
        final Random random = new Random(SEED);
        for (int round = 0; round < 40; round++)
        {
            final int keys = 1 + random.nextInt(round < 30 ? 200 : 20_000);
            final TreeMap<byte[], String> atPin = new TreeMap<>(Keys::compare);
            final ReadResultBuilder builder = round % 2 == 0 ? ReadResultBuilder.forLiveScan() : ReadResultBuilder.forPastRevision();
            final List<String> preImages = new ArrayList<>();
            final Map<String, Boolean> decided = new TreeMap<>();
            for (int i = 0; i < keys; i++)
            {
                final String key = String.format("key-%06d", i);
                final boolean existedAtPin = random.nextInt(4) != 0;
                final boolean changedSince = random.nextInt(3) == 0;
                final String value = "v" + random.nextInt(1 << 20) + "x".repeat(random.nextInt(3) == 0 ? 5_000 : 3);
                if (existedAtPin)
                {
                    atPin.put(bytes(key), value);
                }
                if (changedSince)
                {
                    preImages.add(key);
                    decided.put(key, existedAtPin);
                }
                else if (existedAtPin)
                {
                    scanned(builder, key, value, 1);
                }
            }
            Collections.shuffle(preImages, random);
            for (final String key : preImages)
            {
                final String oldest = decided.get(key) ? atPin.get(bytes(key)) : null;
                preImage(builder, key, oldest, 1);
                for (int later = random.nextInt(3); later > 0; later--)
                {
                    preImage(builder, key, random.nextBoolean() ? "later" : null, 2);
                }
            }
            final List<String> expected = new ArrayList<>();
            atPin.forEach((key, value) -> expected.add(new String(key, StandardCharsets.UTF_8) + "=" + value));
            assertEquals(expected, render(builder.build(3, 0).kvs()), "seed " + SEED + " round " + round);
        }
    }

    /** Adds a scanned entry as the reader gets it: copied out of an off-heap index. */
    private void scanned(final ReadResultBuilder builder, final String key, final String value, final long revision)
    {
        final byte[] k = bytes(key);
        final byte[] v = bytes(value);
        index.put(new UnsafeBuffer(k), 0, k.length, new UnsafeBuffer(v), 0, v.length, revision, entry);
        assertTrue(index.get(new UnsafeBuffer(k), 0, k.length, entry));
        builder.addScanned(entry);
    }

    private static void preImage(final ReadResultBuilder builder, final String key, final String value, final long revision)
    {
        final byte[] k = bytes(key);
        final byte[] v = value == null ? new byte[0] : bytes(value);
        final byte[] both = new byte[k.length + v.length];
        System.arraycopy(k, 0, both, 0, k.length);
        System.arraycopy(v, 0, both, k.length, v.length);
        builder.addPreImage(new UnsafeBuffer(both), 0, k.length, k.length, value == null ? -1 : v.length,
            revision, revision, 1, 0);
    }

    private static List<String> render(final List<KeyValue> kvs)
    {
        final List<String> out = new ArrayList<>();
        for (final KeyValue kv : kvs)
        {
            out.add(kv.keyAsString() + "=" + kv.valueAsString());
        }
        return out;
    }

    private static byte[] bytes(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
