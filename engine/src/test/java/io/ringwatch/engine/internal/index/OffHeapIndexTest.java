package io.ringwatch.engine.internal.index;

import static io.ringwatch.engine.internal.index.TestBytes.bytes;
import static io.ringwatch.engine.internal.index.TestBytes.text;
import static io.ringwatch.engine.internal.index.TestBytes.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class OffHeapIndexTest
{
    private final OffHeapIndex index = new OffHeapIndex(16);
    private final IndexEntry prev = new IndexEntry();
    private final IndexEntry entry = new IndexEntry();

    @AfterEach
    void close()
    {
        index.close();
    }

    @Test
    void newKeyStartsAtVersionOneWithCreateRevisionEqualToModRevision()
    {
        put("a", "one", 5);

        assertFalse(prev.found());
        assertTrue(get("a"));
        assertEquals("a", text(entry.keyBytes()));
        assertEquals("one", text(entry.valueBytes()));
        assertEquals(5, entry.createRevision());
        assertEquals(5, entry.modRevision());
        assertEquals(1, entry.version());
        assertEquals(1, index.size());
    }

    @Test
    void updateKeepsCreateRevisionIncrementsVersionAndReturnsThePreviousEntry()
    {
        put("a", "one", 5);
        put("a", "two", 7);

        assertTrue(prev.found());
        assertEquals("one", text(prev.valueBytes()));
        assertEquals(5, prev.modRevision());
        assertEquals(1, prev.version());
        assertTrue(get("a"));
        assertEquals("two", text(entry.valueBytes()));
        assertEquals(5, entry.createRevision());
        assertEquals(7, entry.modRevision());
        assertEquals(2, entry.version());
        assertEquals(1, index.size());
    }

    @Test
    void restoreTakesTheGivenMetadataForNewAndExistingKeys()
    {
        restore("a", "one", 3, 9, 4);
        assertTrue(get("a"));
        assertEquals(3, entry.createRevision());
        assertEquals(9, entry.modRevision());
        assertEquals(4, entry.version());

        restore("a", "two", 3, 12, 5);
        assertEquals("one", text(prev.valueBytes()));
        restore("a", "three-and-longer-than-before", 11, 14, 1);
        assertTrue(get("a"));
        assertEquals("three-and-longer-than-before", text(entry.valueBytes()));
        assertEquals(11, entry.createRevision());
        assertEquals(14, entry.modRevision());
        assertEquals(1, entry.version());
        assertEquals(1, index.size());

        restore("b", "x", 20, 20, 1);
        assertEquals(List.of("a", "b"), scanKeys(null, null, 0));
    }

    @Test
    void restoreRefusesImpossibleMetadataAndChangesNothing()
    {
        restore("a", "one", 3, 9, 4);
        final UnsafeBuffer v = utf8("x");
        assertThrows(IndexArgumentException.class, () -> index.restore(utf8("a"), 0, 1, v, 0, 1, 10, 9, 1, prev));
        assertThrows(IndexArgumentException.class, () -> index.restore(utf8("a"), 0, 1, v, 0, 1, 0, 9, 1, prev));
        assertThrows(IndexArgumentException.class, () -> index.restore(utf8("a"), 0, 1, v, 0, 1, 3, 9, 0, prev));
        assertTrue(get("a"));
        assertEquals("one", text(entry.valueBytes()));
        assertEquals(9, entry.modRevision());
    }

    @Test
    void updateThatOutgrowsItsBlockKeepsMetadataAndOrder()
    {
        put("a", "x", 1);
        put("b", "x", 2);
        put("c", "x", 3);
        final String big = "v".repeat(5000);

        put("b", big, 4);
        put("b", "small", 5);

        assertTrue(get("b"));
        assertEquals("small", text(entry.valueBytes()));
        assertEquals(2, entry.createRevision());
        assertEquals(3, entry.version());
        assertEquals(List.of("a", "b", "c"), scanKeys(null, null, 0));
        assertEquals(big, text(prev.valueBytes()));
    }

    @Test
    void removeReturnsTheRemovedEntryAndRecreateStartsOver()
    {
        put("a", "one", 3);
        put("a", "two", 4);

        assertTrue(index.remove(utf8("a"), 0, 1, prev));
        assertEquals("two", text(prev.valueBytes()));
        assertEquals(2, prev.version());
        assertFalse(get("a"));
        assertFalse(entry.found());
        assertEquals(0, index.size());

        put("a", "three", 9);
        assertFalse(prev.found());
        assertTrue(get("a"));
        assertEquals(9, entry.createRevision());
        assertEquals(1, entry.version());
    }

    @Test
    void removeOfAnAbsentKeyChangesNothing()
    {
        put("a", "one", 1);

        assertFalse(index.remove(utf8("b"), 0, 1, prev));

        assertFalse(prev.found());
        assertEquals(1, index.size());
        assertEquals(List.of("a"), scanKeys(null, null, 0));
    }

    @Test
    void keysAreReadFromTheirOffsetAndEmptyValuesAreKept()
    {
        final UnsafeBuffer keys = utf8("xxkeyxx");
        index.put(keys, 2, 3, utf8(""), 0, 0, 1, prev);

        assertTrue(index.get(utf8("key"), 0, 3, entry));
        assertEquals(0, entry.valueLength());
        assertFalse(index.get(keys, 0, 3, entry));
    }

    @Test
    void scanVisitsKeysInUnsignedByteOrder()
    {
        index.put(bytes(0xFF), 0, 1, utf8("v"), 0, 1, 1, prev);
        index.put(bytes(0x01), 0, 1, utf8("v"), 0, 1, 2, prev);
        index.put(bytes(0x80, 0x00), 0, 2, utf8("v"), 0, 1, 3, prev);
        index.put(bytes(0x01, 0x00), 0, 2, utf8("v"), 0, 1, 4, prev);

        final List<String> seen = new ArrayList<>();
        index.scan(null, 0, 0, null, 0, 0, 0, e ->
        {
            seen.add(hex(e.keyBytes()));
            return true;
        });

        assertEquals(List.of("01", "0100", "8000", "ff"), seen);
    }

    @Test
    void keysAppendedInOrderStayOrderedWhenTheLastIsRemovedOrMovedAndOthersGoBeforeIt()
    {
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2_000; i++)
        {
            final String key = String.format("k%05d", i * 2);
            put(key, "v", 1 + i);
            expected.add(key);
        }
        final String last = expected.remove(expected.size() - 1);
        assertTrue(index.remove(utf8(last), 0, last.length(), prev));
        // the new last key outgrows its block: the appends below must follow its new node
        final String newLast = expected.get(expected.size() - 1);
        put(newLast, "a value long enough to move the node to a larger block", 3_000);
        put("k00001", "v", 3_001);
        expected.add(1, "k00001");
        for (int i = 0; i < 500; i++)
        {
            final String key = String.format("k%05d", 4_000 + i);
            put(key, "v", 3_002 + i);
            expected.add(key);
        }

        assertEquals(expected, scanKeys(null, null, 0));
        assertEquals(expected.size(), index.size());
    }

    @Test
    void scanHonoursInclusiveFromExclusiveToAndLimit()
    {
        for (final String key : List.of("a", "b", "ba", "bb", "c", "d"))
        {
            put(key, "v", 1);
        }

        assertEquals(List.of("b", "ba", "bb"), scanKeys("b", "c", 0));
        assertEquals(List.of("ba", "bb", "c", "d"), scanKeys("b0", null, 0));
        assertEquals(List.of("a", "b"), scanKeys(null, null, 2));
        assertEquals(List.of(), scanKeys("c", "c", 0));
        assertEquals(List.of(), scanKeys("e", null, 0));
        assertEquals(List.of("a", "b", "ba", "bb", "c", "d"), scanKeys("", null, -1));
    }

    @Test
    void scanStopsWhenTheVisitorSaysSoAndCountsWhatItVisited()
    {
        for (final String key : List.of("a", "b", "c"))
        {
            put(key, "v", 1);
        }

        final int visited = index.scan(null, 0, 0, null, 0, 0, 0, e -> !"b".equals(text(e.keyBytes())));

        assertEquals(2, visited);
    }

    @Test
    void aScanRestartedMidwayResumesAfterTheLastKeyItVisitedWithinItsBounds()
    {
        for (final String from : new String[] {null, "a", "aa", "b"})
        {
            final OffHeapIndex scanned = new OffHeapIndex(16);
            try
            {
                for (final String key : List.of("a", "b", "c", "d"))
                {
                    final UnsafeBuffer v = utf8("v");
                    scanned.put(utf8(key), 0, 1, v, 0, 1, 1, prev);
                }
                final List<String> keys = new ArrayList<>();
                final UnsafeBuffer bigger = utf8("x".repeat(300));
                scanned.scan(from == null ? null : utf8(from), 0, from == null ? 0 : from.length(), null, 0, 0, 0, e ->
                {
                    keys.add(text(e.keyBytes()));
                    if ("b".equals(text(e.keyBytes())))
                    {
                        // c moves to a larger block: b's link changes under the scan, which restarts from b.
                        scanned.put(utf8("c"), 0, 1, bigger, 0, bigger.capacity(), 2, prev);
                    }
                    return true;
                });

                assertEquals(from == null || "a".equals(from) ? List.of("a", "b", "c", "d") : List.of("b", "c", "d"), keys,
                    "from " + from);
            }
            finally
            {
                scanned.close();
            }
        }
    }

    @Test
    void scanOfAnEmptyIndexVisitsNothing()
    {
        assertEquals(List.of(), scanKeys(null, null, 0));
    }

    @Test
    void nestedScanFromAVisitorWorks()
    {
        put("a", "v", 1);
        put("b", "v", 2);
        final List<String> pairs = new ArrayList<>();

        index.scan(null, 0, 0, null, 0, 0, 0, outer ->
        {
            final String first = text(outer.keyBytes());
            index.scan(null, 0, 0, null, 0, 0, 0, inner ->
            {
                pairs.add(first + text(inner.keyBytes()));
                return true;
            });
            return true;
        });

        assertEquals(List.of("aa", "ab", "ba", "bb"), pairs);
    }

    @Test
    void sizeHintsTheHashTableCannotHoldAreRejected()
    {
        assertThrows(IndexArgumentException.class, () -> new OffHeapIndex(-1));
        // a hint the largest table could not hold at its fill after a growth (1.25 x 2^27 slots fit)
        assertThrows(IndexArgumentException.class, () -> new OffHeapIndex((1 << 27) + 1));
    }

    @Test
    void badInputIsRejectedAndChangesNothing()
    {
        put("a", "one", 1);
        final UnsafeBuffer value = utf8("v");

        assertThrows(IndexArgumentException.class, () -> index.put(null, 0, 1, value, 0, 1, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 0, 0, value, 0, 1, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 1, 1, value, 0, 1, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), -1, 1, value, 0, 1, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 0, 1, null, 0, 1, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 0, 1, value, 0, 2, 2, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 0, 1, value, 0, 1, 0, prev));
        assertThrows(IndexArgumentException.class, () -> index.put(utf8("a"), 0, 1, value, 0, 1, 2, null));
        assertThrows(IndexArgumentException.class, () -> index.remove(null, 0, 1, prev));
        assertThrows(IndexArgumentException.class, () -> index.remove(utf8("a"), 0, 0, prev));
        assertThrows(IndexArgumentException.class, () -> index.get(null, 0, 1, entry));
        assertThrows(IndexArgumentException.class, () -> index.get(utf8("a"), 0, 0, entry));
        assertThrows(IndexArgumentException.class, () -> index.scan(utf8("a"), 0, 2, null, 0, 0, 0, e -> true));
        assertThrows(IndexArgumentException.class, () -> index.scan(null, 0, 0, null, 0, 0, 0, null));
        assertThrows(IndexArgumentException.class, () -> new OffHeapIndex(-1));

        assertEquals(1, index.size());
        assertTrue(get("a"));
        assertEquals("one", text(entry.valueBytes()));
        assertEquals(1, entry.version());
        assertEquals(List.of("a"), scanKeys(null, null, 0));
    }

    @Test
    void entryReusedForAScanInProgressIsRejected()
    {
        put("a", "v", 1);
        final IndexEntry scratch = new IndexEntry();

        assertThrows(IndexArgumentException.class, () -> index.scan(null, 0, 0, null, 0, 0, 0,
            e -> index.scan(null, 0, 0, null, 0, 0, 0, inner -> true, scratch) >= 0, scratch));
    }

    private void put(final String key, final String value, final long revision)
    {
        final UnsafeBuffer v = utf8(value);
        index.put(utf8(key), 0, key.length(), v, 0, v.capacity(), revision, prev);
    }

    private void restore(final String key, final String value, final long create, final long mod, final long version)
    {
        final UnsafeBuffer v = utf8(value);
        index.restore(utf8(key), 0, key.length(), v, 0, v.capacity(), create, mod, version, prev);
    }

    private boolean get(final String key)
    {
        final boolean found = index.get(utf8(key), 0, key.length(), entry);
        assertEquals(found, entry.found());
        return found;
    }

    private List<String> scanKeys(final String from, final String to, final int limit)
    {
        final List<String> keys = new ArrayList<>();
        final DirectBuffer fromBuffer = from == null ? null : utf8(from);
        final DirectBuffer toBuffer = to == null ? null : utf8(to);
        final int visited = index.scan(
            fromBuffer, 0, from == null ? 0 : from.length(),
            toBuffer, 0, to == null ? 0 : to.length(),
            limit,
            e ->
            {
                keys.add(text(e.keyBytes()));
                return true;
            });
        assertEquals(keys.size(), visited);
        return keys;
    }

    private static String hex(final byte[] bytes)
    {
        final StringBuilder builder = new StringBuilder();
        for (final byte b : bytes)
        {
            builder.append(String.format("%02x", b & 0xFF));
        }
        return builder.toString();
    }

    /**
     * The node layout's boundaries: createRev and etcd's version in narrow 32-bit fields and past them
     * in the wide trailer, with and without the lease trailer, the longest key, the highest level,
     * and the moves and block reuse a change of layout causes.
     */
    @Nested
    class NodeLayout
    {
        private static final long NARROW = 0xFFFF_FFFFL;
        private static final long NARROW_VERSION = Nodes.NARROW_VERSION_LIMIT;

        @Test
        void theNarrowFieldsHoldADistanceUpTo2To32Minus1AndAVersionUpTo1023AndOneMoreNeedsTheWideTrailer()
        {
            assertEquals(1023, NARROW_VERSION);
            assertFalse(Nodes.wide(1, 1 + NARROW, NARROW_VERSION));
            assertTrue(Nodes.wide(1, 2 + NARROW, 1));
            assertTrue(Nodes.wide(1, 5, NARROW_VERSION + 1));
            assertFalse(Nodes.wide(Long.MAX_VALUE - NARROW, Long.MAX_VALUE, 1));
            assertTrue(Nodes.wide(Long.MAX_VALUE - NARROW - 1, Long.MAX_VALUE, 1));
            assertEquals(Nodes.nodeLength(1, 22, 100, 0, false) + Nodes.WIDE_BYTES, Nodes.nodeLength(1, 22, 100, 0, true));
            assertEquals(156, BlockArena.blockLengthFor(Nodes.nodeLength(1, 22, 100, 0, false)),
                "a 22-byte key with a 100-byte value at level 1: 28-byte header, one link, 2 bytes to the unit");
            assertEquals(160, BlockArena.blockLengthFor(Nodes.nodeLength(2, 22, 100, 0, false)),
                "and at level 2");
        }

        @Test
        void aVersionPastTheNarrowLimitMovesTheKeyToTheWideLayoutAndBackWithItsMetadata()
        {
            put("a", "x", 1);
            restore("b", "value", 2, 9, NARROW_VERSION);
            put("c", "x", 10);
            assertEntry("b", "value", 2, 9, NARROW_VERSION, 0);

            put("b", "value", 11);
            assertEntry("b", "value", 2, 11, NARROW_VERSION + 1, 0);
            assertEquals(NARROW_VERSION, prev.version());

            put("b", "value-longer", 12);
            assertEntry("b", "value-longer", 2, 12, NARROW_VERSION + 2, 0);

            restore("b", "v", 2, 13, 7);
            assertEntry("b", "v", 2, 13, 7, 0);
            assertEquals(NARROW_VERSION + 2, prev.version());
            assertEquals(List.of("a", "b", "c"), scanKeys(null, null, 0));
        }

        @Test
        void everyNarrowVersionRoundTripsBesideValueLengthsAndLeasesThatShareItsWords()
        {
            for (long version = 1; version <= NARROW_VERSION; version++)
            {
                final String key = "k" + version % 7;
                final String value = "v".repeat((int)(version % 41));
                final long lease = version % 3 == 0 ? version : 0;
                restoreWithLease(key, value, lease, 1, 1 + version, version);

                assertEntry(key, value, 1, 1 + version, version, lease);
                assertEquals(Math.min(7, version), index.size(), "keys k0 to k6, each restored in place");
            }
        }

        @Test
        void aKeyCreatedMoreThan2To32RevisionsBeforeItsLastChangeKeepsItsCreateRevision()
        {
            restore("k", "v", 1, 1 + NARROW, 3);
            assertEntry("k", "v", 1, 1 + NARROW, 3, 0);

            put("k", "w", 2 + NARROW);
            assertEntry("k", "w", 1, 2 + NARROW, 4, 0);

            restore("top", "v", Long.MAX_VALUE - NARROW - 1, Long.MAX_VALUE, Long.MAX_VALUE);
            assertEntry("top", "v", Long.MAX_VALUE - NARROW - 1, Long.MAX_VALUE, Long.MAX_VALUE, 0);
        }

        @Test
        void aLeaseAndTheWideTrailerAreKeptTogetherAndEachDroppedAlone()
        {
            restoreWithLease("k", "value", 77, 3, 1L << 40, 1L << 33);
            assertEntry("k", "value", 3, 1L << 40, 1L << 33, 77);

            final UnsafeBuffer v = utf8("value");
            index.put(utf8("k"), 0, 1, v, 0, v.capacity(), 0, (1L << 40) + 1, prev);
            assertEntry("k", "value", 3, (1L << 40) + 1, (1L << 33) + 1, 0);
            assertEquals(77, prev.lease());

            restoreWithLease("k", "value", 78, 3, (1L << 40) + 2, 5);
            assertEntry("k", "value", 3, (1L << 40) + 2, 5, 78);
            restoreWithLease("k", "value", 78, (1L << 40) + 2, (1L << 40) + 3, 1);
            assertEntry("k", "value", (1L << 40) + 2, (1L << 40) + 3, 1, 78);
        }

        @Test
        void aFreedWideNodeIsReusedByTheNextNodeOfItsLength()
        {
            restore("k1", "value", 1, 2, NARROW + 1);
            final long bytes = index.offHeapBytes();
            for (int i = 0; i < 1_000; i++)
            {
                assertTrue(index.remove(utf8("k1"), 0, 2, prev));
                restore("k1", "value", 1, 3 + i, NARROW + 1 + i);
            }
            assertEquals(bytes, index.offHeapBytes());
            assertEntry("k1", "value", 1, 1_002, NARROW + 1_000, 0);
        }

        @Test
        void theLongestKeyIsStoredAndOneByteMoreIsRefusedChangingNothing()
        {
            final byte[] longest = new byte[Nodes.MAX_KEY_LENGTH + 1];
            Arrays.fill(longest, (byte)'k');
            final UnsafeBuffer key = new UnsafeBuffer(longest);
            final UnsafeBuffer v = utf8("v");

            index.put(key, 0, Nodes.MAX_KEY_LENGTH, v, 0, 1, 5, prev);
            assertThrows(IndexArgumentException.class, () -> index.put(key, 0, Nodes.MAX_KEY_LENGTH + 1, v, 0, 1, 6, prev));

            assertEquals(1, index.size());
            assertTrue(index.get(key, 0, Nodes.MAX_KEY_LENGTH, entry));
            assertEquals(Nodes.MAX_KEY_LENGTH, entry.keyLength());
            assertEquals(5, entry.modRevision());
            assertFalse(index.get(key, 0, Nodes.MAX_KEY_LENGTH + 1, entry));
        }

        @Test
        void aNodeAtTheHighestLevelWithLeaseAndWideTrailerRoundTripsAndFillsItsBlockExactly()
        {
            try (BlockArena arena = new BlockArena(16))
            {
                final UnsafeBuffer key = utf8("a-key");
                final UnsafeBuffer value = utf8("a-value-of-some-length");
                final long needed = Nodes.nodeLength(Nodes.MAX_LEVEL, key.capacity(), value.capacity(), 9, true);
                final int ref = arena.allocate(BlockArena.blockLengthFor(needed));
                final UnsafeBuffer buffer = arena.buffer(ref);
                final int offset = arena.offset(ref);
                Nodes.write(buffer, offset, Nodes.MAX_LEVEL, key, 0, key.capacity(), value, 0, value.capacity(), 9,
                    4, 4 + NARROW + 1, NARROW + 1);
                for (int level = 0; level < Nodes.MAX_LEVEL; level++)
                {
                    assertEquals(0, buffer.getInt(offset + Nodes.nextOffset(level)), "level " + level);
                }

                assertTrue(Nodes.wellFormed(buffer, offset));
                assertEquals(Nodes.MAX_LEVEL, Nodes.level(buffer, offset));
                Nodes.copyEntry(buffer, offset, entry);
                assertArrayEquals("a-key".getBytes(), entry.keyBytes());
                assertEquals("a-value-of-some-length", text(entry.valueBytes()));
                assertEquals(4, entry.createRevision());
                assertEquals(4 + NARROW + 1, entry.modRevision());
                assertEquals(NARROW + 1, entry.version());
                assertEquals(9, entry.lease());
                final int room = (int)(BlockArena.blockLength(buffer, offset) - needed);
                assertTrue(Nodes.valueFits(buffer, offset, value.capacity() + room, 9, 4, 4 + NARROW + 1, NARROW + 1));
                assertFalse(Nodes.valueFits(buffer, offset, value.capacity() + room + 1, 9, 4, 4 + NARROW + 1, NARROW + 1));
                assertTrue(Nodes.valueFits(buffer, offset, value.capacity() + room + Nodes.WIDE_BYTES, 9, 4, 5, 1),
                    "narrow metadata frees the wide trailer's bytes for the value");
            }
        }

        @Test
        void aCopyThatSeesLengthsOrAWideFlagThatDoNotFitTheBlockClearsTheEntryInsteadOfReadingPastIt()
        {
            try (BlockArena arena = new BlockArena(16))
            {
                final UnsafeBuffer key = utf8("k");
                final UnsafeBuffer value = utf8("v");
                final long needed = Nodes.nodeLength(1, key.capacity(), value.capacity(), 0, false);
                final int ref = arena.allocate(BlockArena.blockLengthFor(needed));
                final UnsafeBuffer buffer = arena.buffer(ref);
                final int offset = arena.offset(ref);
                Nodes.write(buffer, offset, 1, key, 0, key.capacity(), value, 0, value.capacity(), 0, 3, 5, 2);
                final int room = (int)(BlockArena.blockLength(buffer, offset) - needed);
                assertTrue(room < Nodes.WIDE_BYTES, "the block has no room for a wide trailer");

                final int valueWord = buffer.getInt(offset + Nodes.VALUE_LENGTH_OFFSET);
                buffer.putInt(offset + Nodes.VALUE_LENGTH_OFFSET, value.capacity() + room + 1);
                Nodes.copyEntry(buffer, offset, entry);
                assertFalse(entry.found(), "a value length past the block");

                buffer.putInt(offset + Nodes.VALUE_LENGTH_OFFSET, valueWord);
                final int shape = buffer.getInt(offset + Nodes.SHAPE_OFFSET);
                buffer.putInt(offset + Nodes.SHAPE_OFFSET, shape | Nodes.WIDE_FLAG);
                Nodes.copyEntry(buffer, offset, entry);
                assertFalse(entry.found(), "a wide flag on a node whose block has no wide trailer");

                buffer.putInt(offset + Nodes.SHAPE_OFFSET, shape);
                Nodes.copyEntry(buffer, offset, entry);
                assertTrue(entry.found());
                assertEquals("v", text(entry.valueBytes()));
                assertEquals(2, entry.version());
            }
        }

        private void assertEntry(
            final String key, final String value, final long create, final long mod, final long version, final long lease)
        {
            assertTrue(index.get(utf8(key), 0, key.length(), entry), key);
            assertEquals(value, text(entry.valueBytes()));
            assertEquals(create, entry.createRevision(), "createRevision");
            assertEquals(mod, entry.modRevision(), "modRevision");
            assertEquals(version, entry.version(), "version");
            assertEquals(lease, entry.lease(), "lease");
        }

        private void restoreWithLease(
            final String key, final String value, final long lease, final long create, final long mod, final long version)
        {
            final UnsafeBuffer v = utf8(value);
            index.restore(utf8(key), 0, key.length(), v, 0, v.capacity(), lease, create, mod, version, prev);
        }
    }
}
