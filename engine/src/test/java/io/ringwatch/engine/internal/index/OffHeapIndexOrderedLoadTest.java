package io.ringwatch.engine.internal.index;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ordered load ({@link OffHeapIndex#beginOrderedLoad}, {@link OffHeapIndex#restoreInOrder}) builds
 * the same index as restoring the same entries one by one, in order or not, and {@link OffHeapIndex#touch}
 * changes nothing.
 */
class OffHeapIndexOrderedLoadTest
{
    private static final long SEED = 16;

    private final OffHeapIndex loaded = new OffHeapIndex(16);
    private final OffHeapIndex restored = new OffHeapIndex(16);
    private final IndexEntry prev = new IndexEntry();

    @AfterEach
    void close()
    {
        loaded.close();
        restored.close();
    }

    @Test
    void anOrderedLoadOfAscendingKeysEqualsAnIndexBuiltByRestores()
    {
        final List<Entry> entries = ascending(20_000, new Random(SEED));

        load(loaded, entries, entries.size());
        entries.forEach(e -> restore(restored, e));

        assertSameIndex(restored, loaded, entries);
    }

    @Test
    void aLoadLargerThanExpectedGrowsTheHashTableAndStaysWhole()
    {
        final List<Entry> entries = ascending(5_000, new Random(SEED + 1));

        load(loaded, entries, 0);
        entries.forEach(e -> restore(restored, e));

        assertSameIndex(restored, loaded, entries);
    }

    @Test
    void keysOutOfOrderOrRepeatedInALoadAreRestoredAsUsual()
    {
        final Random random = new Random(SEED + 2);
        final List<Entry> entries = ascending(3_000, random);
        final List<Entry> shuffled = new ArrayList<>(entries);
        Collections.shuffle(shuffled.subList(1_000, 2_000), random);
        shuffled.add(entries.get(10).withValue("again"));
        shuffled.addAll(ascending(500, random));

        load(loaded, shuffled, shuffled.size());
        shuffled.forEach(e -> restore(restored, e));

        assertSameIndex(restored, loaded, shuffled);
        assertTrue(loaded.get(entries.get(10).key(), 0, entries.get(10).key().capacity(), prev));
        assertEquals("again", new String(prev.valueBytes(), StandardCharsets.US_ASCII));
    }

    @Test
    void theIndexTakesWritesAsUsualAfterALoad()
    {
        final List<Entry> entries = ascending(4_000, new Random(SEED + 3));
        load(loaded, entries, entries.size());
        entries.forEach(e -> restore(restored, e));

        for (int i = 0; i < entries.size(); i += 3)
        {
            final DirectBuffer key = entries.get(i).key();
            assertTrue(loaded.remove(key, 0, key.capacity(), prev));
            assertTrue(restored.remove(key, 0, key.capacity(), prev));
        }
        final UnsafeBuffer value = ascii("a value long enough to move the node elsewhere in the arena");
        for (int i = 1; i < entries.size(); i += 3)
        {
            final DirectBuffer key = entries.get(i).key();
            loaded.put(key, 0, key.capacity(), value, 0, value.capacity(), 99_999, prev);
            restored.put(key, 0, key.capacity(), value, 0, value.capacity(), 99_999, prev);
        }

        assertEquals(restored.size(), loaded.size());
        assertEquals(IndexDump.dump(restored), IndexDump.dump(loaded));
    }

    @Test
    void aRestoreInOrderOutsideALoadOrWithBadMetadataIsRefusedAndChangesNothing()
    {
        final UnsafeBuffer key = ascii("k");
        assertThrows(IndexArgumentException.class, () -> loaded.restoreInOrder(key, 0, 1, key, 0, 1, 0, 1, 1, 1));

        loaded.beginOrderedLoad(4);
        assertThrows(IndexArgumentException.class, () -> loaded.beginOrderedLoad(4));
        assertThrows(IndexArgumentException.class, () -> loaded.restoreInOrder(key, 0, 1, key, 0, 1, 0, 5, 2, 1));
        assertThrows(IndexArgumentException.class, () -> loaded.restoreInOrder(key, 0, 1, key, 0, 1, 0, 1, 1, 0));
        assertThrows(IndexArgumentException.class, () -> loaded.restoreInOrder(key, 0, 0, key, 0, 1, 0, 1, 1, 1));
        assertThrows(IndexArgumentException.class, () -> loaded.restoreInOrder(key, 0, 2, key, 0, 1, 0, 1, 1, 1));
        loaded.finishOrderedLoad();

        assertEquals(0, loaded.size());
        assertFalse(loaded.get(key, 0, 1, prev));
        assertFalse(loaded.mayHoldLeases());
        assertThrows(IndexArgumentException.class, () -> loaded.beginOrderedLoad(-1));
    }

    @Test
    void touchingABatchOfKeysChangesNothing()
    {
        final List<Entry> entries = ascending(1_000, new Random(SEED + 4));
        entries.forEach(e -> restore(loaded, e));
        final List<String> before = IndexDump.dump(loaded);
        final UnsafeBuffer keys = new UnsafeBuffer(new byte[64 * 1024]);
        final int[] offsets = new int[40];
        final int[] lengths = new int[40];
        int end = 0;
        for (int i = 0; i < offsets.length; i++)
        {
            final DirectBuffer key = i % 2 == 0 ? entries.get(i * 7).key() : ascii("absent/" + i);
            keys.putBytes(end, key, 0, key.capacity());
            offsets[i] = end;
            lengths[i] = key.capacity();
            end += key.capacity();
        }

        loaded.touch(keys, offsets, lengths, 0, offsets.length);
        loaded.touch(keys, offsets, lengths, 5, 7);
        loaded.touch(keys, offsets, lengths, 0, 0);

        assertEquals(before, IndexDump.dump(loaded));
        assertThrows(IndexArgumentException.class, () -> loaded.touch(keys, offsets, lengths, 0, offsets.length + 1));
        assertThrows(IndexArgumentException.class, () -> loaded.touch(keys, offsets, lengths, 1, offsets.length));
        lengths[3] = 0;
        assertThrows(IndexArgumentException.class, () -> loaded.touch(keys, offsets, lengths, 0, offsets.length));
        assertEquals(before, IndexDump.dump(loaded));
    }

    @Test
    void mayHoldLeasesIsFalseUntilAKeyIsStoredWithALease()
    {
        final UnsafeBuffer key = ascii("k");
        assertFalse(loaded.mayHoldLeases());
        loaded.put(key, 0, 1, key, 0, 1, 1, prev);
        loaded.restore(key, 0, 1, key, 0, 1, 1, 2, 2, prev);
        assertFalse(loaded.mayHoldLeases());
        loaded.put(key, 0, 1, key, 0, 1, 7, 3, prev);
        assertTrue(loaded.mayHoldLeases());

        restored.beginOrderedLoad(1);
        restored.restoreInOrder(key, 0, 1, key, 0, 1, 7, 1, 1, 1);
        restored.finishOrderedLoad();
        assertTrue(restored.mayHoldLeases());
    }

    private static void load(final OffHeapIndex index, final List<Entry> entries, final long expected)
    {
        index.beginOrderedLoad(expected);
        for (final Entry e : entries)
        {
            index.restoreInOrder(e.key(), 0, e.key().capacity(), e.value(), 0, e.value().capacity(), e.lease(),
                e.createRevision(), e.modRevision(), e.version());
        }
        index.finishOrderedLoad();
    }

    private void restore(final OffHeapIndex index, final Entry e)
    {
        index.restore(e.key(), 0, e.key().capacity(), e.value(), 0, e.value().capacity(), e.lease(),
            e.createRevision(), e.modRevision(), e.version(), prev);
    }

    /** Same keys in the same order with the same states, each found by a point read too. */
    private void assertSameIndex(final OffHeapIndex expected, final OffHeapIndex actual, final List<Entry> entries)
    {
        assertEquals(expected.size(), actual.size());
        assertEquals(IndexDump.dump(expected), IndexDump.dump(actual));
        final IndexEntry want = new IndexEntry();
        for (final Entry e : entries)
        {
            assertTrue(expected.get(e.key(), 0, e.key().capacity(), want));
            assertTrue(actual.get(e.key(), 0, e.key().capacity(), prev), "seed " + SEED);
            assertArrayEquals(want.valueBytes(), prev.valueBytes());
            assertEquals(want.modRevision(), prev.modRevision());
            assertEquals(want.lease(), prev.lease());
        }
        assertEquals(expected.mayHoldLeases(), actual.mayHoldLeases());
    }

    /** {@code count} entries with strictly ascending keys of varied lengths, values and leases. */
    private static List<Entry> ascending(final int count, final Random random)
    {
        final List<Entry> entries = new ArrayList<>(count);
        final String suffix = Long.toString(random.nextLong() >>> 1, 36);
        for (int i = 0; i < count; i++)
        {
            final String key = String.format("key/%08d/%s", i, suffix.substring(0, random.nextInt(suffix.length())));
            final byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            final long create = 1 + random.nextInt(1_000);
            final long mod = create + random.nextInt(1_000);
            entries.add(new Entry(ascii(key), new UnsafeBuffer(value), random.nextInt(4) == 0 ? 1 + random.nextInt(9) : 0,
                create, mod, 1 + random.nextInt(50)));
        }
        return entries;
    }

    private static UnsafeBuffer ascii(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    private record Entry(DirectBuffer key, DirectBuffer value, long lease, long createRevision, long modRevision, long version)
    {
        Entry withValue(final String text)
        {
            return new Entry(key, ascii(text), lease, createRevision, modRevision, version);
        }
    }
}
