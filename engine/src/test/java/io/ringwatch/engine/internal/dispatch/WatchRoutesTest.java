package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.kv.Keys;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatchRoutesTest
{
    private final WatchRoutes<String> routes = new WatchRoutes<>();

    @Test
    void exactKeyMatchesOnlyThatKey()
    {
        routes.addKey(utf8("a/b"), "w1");

        assertEquals(List.of("w1"), route(utf8("a/b")));
        assertEquals(List.of(), route(utf8("a/b/")));
        assertEquals(List.of(), route(utf8("a/")));
        assertEquals(List.of(), route(utf8("")));
    }

    @Test
    void anImmutableExactKeyIsStoredAsTheCallersOwnArray()
    {
        final byte[] key = utf8("a/b");
        routes.addImmutableKey(key, "w1");
        routes.addImmutableKey(utf8("a/b"), "w2");

        assertSame(key, routes.storedExactKey(utf8("a/b")));
        assertEquals(List.of("w1", "w2"), route(utf8("a/b")));
    }

    @Test
    void aCopiedExactKeyIsStoredOnceAndTheCallerMayReuseItsArray()
    {
        final byte[] key = utf8("a/b");
        routes.addKey(key, "w1");
        key[0] = 'z';

        assertNotSame(key, routes.storedExactKey(utf8("a/b")));
        assertEquals(List.of("w1"), route(utf8("a/b")));
        assertEquals(List.of(), route(utf8("z/b")));
    }

    @Test
    void rangeMatchesFromInclusiveToExclusive()
    {
        routes.addRange(utf8("b"), utf8("d"), "r");

        assertEquals(List.of(), route(utf8("a")));
        assertEquals(List.of(), route(utf8("azzz")));
        assertEquals(List.of("r"), route(utf8("b")));
        assertEquals(List.of("r"), route(utf8("c")));
        assertEquals(List.of("r"), route(utf8("czzz")));
        assertEquals(List.of(), route(utf8("d")));
        assertEquals(List.of(), route(utf8("d\0")));
    }

    @Test
    void unboundedRangeMatchesEveryKeyAtOrAboveFrom()
    {
        routes.addRange(utf8("m"), null, "tail");

        assertEquals(List.of(), route(utf8("lzzz")));
        assertEquals(List.of("tail"), route(utf8("m")));
        assertEquals(List.of("tail"), route(bytes(0xFF, 0xFF, 0xFF)));
    }

    @Test
    void emptyFromWithUnboundedEndMatchesEveryKey()
    {
        routes.addRange(new byte[0], null, "everything");

        assertEquals(List.of("everything"), route(new byte[0]));
        assertEquals(List.of("everything"), route(bytes(0x00)));
        assertEquals(List.of("everything"), route(bytes(0xFF)));
    }

    @Test
    void prefixWatchIsTheRangeUpToPrefixEnd()
    {
        final byte[] prefix = utf8("pods/");
        routes.addRange(prefix, Keys.prefixEnd(prefix), "pods");

        assertEquals(List.of("pods"), route(utf8("pods/")));
        assertEquals(List.of("pods"), route(utf8("pods/a")));
        assertEquals(List.of("pods"), route(concat(utf8("pods/"), bytes(0xFF, 0xFF))));
        assertEquals(List.of(), route(utf8("pods")));
        assertEquals(List.of(), route(utf8("pods0")));
    }

    @Test
    void nestedPrefixesOfManyLengthsAllMatchAKeyUnderThemShorterFirst()
    {
        routes.addRange(utf8("/registry/pods/ns-1/"), Keys.prefixEnd(utf8("/registry/pods/ns-1/")), "namespace");
        routes.addRange(utf8("/registry/"), Keys.prefixEnd(utf8("/registry/")), "registry");
        routes.addRange(utf8("/registry/pods/"), Keys.prefixEnd(utf8("/registry/pods/")), "pods");
        routes.addRange(utf8("/registry/pods/ns-2/"), Keys.prefixEnd(utf8("/registry/pods/ns-2/")), "other namespace");

        assertEquals(List.of("registry", "pods", "namespace"), route(utf8("/registry/pods/ns-1/a")));
        assertEquals(List.of("registry", "pods"), route(utf8("/registry/pods/ns-10")), "a longer sibling is not under ns-1/");
        assertEquals(List.of(), route(utf8("/regis")), "a key shorter than every prefix");
        assertEquals(4, routes.size());
    }

    @Test
    void aPrefixEndingInHighBytesMatchesOnlyKeysThatStartWithIt()
    {
        final byte[] prefix = bytes('a', 0xFF);
        routes.addRange(prefix, Keys.prefixEnd(prefix), "a-ff");

        assertEquals(List.of("a-ff"), route(bytes('a', 0xFF)));
        assertEquals(List.of("a-ff"), route(bytes('a', 0xFF, 0x00)));
        assertEquals(List.of(), route(bytes('a', 0xFE, 0xFF)));
        assertEquals(List.of(), route(bytes('b')));
    }

    @Test
    void removingTheLastPrefixOfALengthKeepsTheOtherLengthsRouting()
    {
        routes.addRange(utf8("ab"), Keys.prefixEnd(utf8("ab")), "ab");
        routes.addRange(utf8("abc"), Keys.prefixEnd(utf8("abc")), "abc");
        routes.addRange(utf8("abcd"), Keys.prefixEnd(utf8("abcd")), "abcd");

        assertTrue(routes.removeRange(utf8("abc"), Keys.prefixEnd(utf8("abc")), "abc"));
        assertFalse(routes.removeRange(utf8("abc"), Keys.prefixEnd(utf8("abc")), "abc"), "already gone");
        assertEquals(List.of("ab", "abcd"), route(utf8("abcde")));

        routes.addRange(utf8("abx"), Keys.prefixEnd(utf8("abx")), "abx");
        assertEquals(List.of("ab", "abx"), route(utf8("abxy")), "a length that came back is probed again");
    }

    @Test
    void aRangeThatIsNotPrefixShapedStaysARange()
    {
        // [ab, ac\0) selects the keys under ab and the key "ac" itself: not the prefix ab.
        routes.addRange(utf8("ab"), concat(utf8("ac"), bytes(0)), "wider");
        routes.addRange(utf8("ab"), Keys.prefixEnd(utf8("ab")), "prefix");

        assertEquals(List.of("prefix", "wider"), route(utf8("abz")));
        assertEquals(List.of("wider"), route(utf8("ac")));
        assertTrue(routes.removeRange(utf8("ab"), concat(utf8("ac"), bytes(0)), "wider"));
        assertEquals(List.of("prefix"), route(utf8("abz")));
    }

    @Test
    void allWatcherMatchesEveryKey()
    {
        routes.addAll("all");

        assertEquals(List.of("all"), route(new byte[0]));
        assertEquals(List.of("all"), route(utf8("x")));
        assertEquals(List.of("all"), route(bytes(0xFF)));
    }

    @Test
    void routeReportsEveryKeyThenExactThenPrefixesThenRangesInLowerBoundOrder()
    {
        routes.addRange(utf8("k"), null, "r2");
        routes.addKey(utf8("key"), "exact");
        routes.addRange(utf8("a"), utf8("z"), "r1");
        routes.addRange(utf8("ke"), Keys.prefixEnd(utf8("ke")), "prefix");
        routes.addAll("all");

        assertEquals(List.of("all", "exact", "prefix", "r1", "r2"), route(utf8("key")));
    }

    @Test
    void routeReturnsTheMatchCount()
    {
        routes.addKey(utf8("k"), "a");
        routes.addRange(utf8("j"), utf8("l"), "b");
        routes.addAll("c");

        final UnsafeBuffer buffer = new UnsafeBuffer(utf8("k"));
        assertEquals(3, routes.route(buffer, 0, 1, watcher -> { }));
        assertEquals(1, routes.route(buffer, 0, 0, watcher -> { }));
    }

    @Test
    void routeReadsTheKeyAtAnOffsetInsideALargerBuffer()
    {
        routes.addKey(utf8("abc"), "w");
        final UnsafeBuffer buffer = new UnsafeBuffer(utf8("xxabcyy"));
        final List<String> matches = new ArrayList<>();

        assertEquals(1, routes.route(buffer, 2, 3, matches::add));
        assertEquals(0, routes.route(buffer, 1, 3, matches::add));
        assertEquals(List.of("w"), matches);
    }

    @Test
    void keysLongerThanAnySeenBeforeRouteCorrectly()
    {
        final byte[] longKey = new byte[1000];
        longKey[999] = 7;
        routes.addKey(longKey, "long");
        routes.addRange(new byte[500], null, "range");

        assertEquals(List.of("long", "range"), route(longKey));
    }

    @Test
    void removeDeletesOneRegistrationOfEachKind()
    {
        routes.addKey(utf8("k"), "key");
        routes.addRange(utf8("a"), utf8("z"), "range");
        routes.addRange(utf8("a"), null, "unbounded");
        routes.addAll("all");
        assertEquals(4, routes.size());

        assertTrue(routes.removeKey(utf8("k"), "key"));
        assertTrue(routes.removeRange(utf8("a"), utf8("z"), "range"));
        assertTrue(routes.removeRange(utf8("a"), null, "unbounded"));
        assertTrue(routes.removeAll("all"));

        assertEquals(0, routes.size());
        assertEquals(List.of(), route(utf8("k")));
    }

    @Test
    void removeOfAnAbsentRegistrationReturnsFalseAndChangesNothing()
    {
        routes.addKey(utf8("k"), "key");
        routes.addRange(utf8("a"), utf8("z"), "range");
        routes.addAll("all");

        assertFalse(routes.removeKey(utf8("k"), "other"));
        assertFalse(routes.removeKey(utf8("j"), "key"));
        assertFalse(routes.removeRange(utf8("a"), utf8("y"), "range"));
        assertFalse(routes.removeRange(utf8("a"), null, "range"));
        assertFalse(routes.removeRange(utf8("b"), utf8("z"), "range"));
        assertFalse(routes.removeRange(utf8("a"), utf8("z"), "other"));
        assertFalse(routes.removeAll("other"));

        assertEquals(3, routes.size());
        assertEquals(List.of("all", "key", "range"), route(utf8("k")));
    }

    @Test
    void removedKeyCanBeAddedAgain()
    {
        routes.addKey(utf8("k"), "w");
        assertTrue(routes.removeKey(utf8("k"), "w"));
        assertFalse(routes.removeKey(utf8("k"), "w"));

        routes.addKey(utf8("k"), "w");
        assertEquals(List.of("w"), route(utf8("k")));
    }

    @Test
    void sameWatcherAddedTwiceMatchesTwiceUntilOneIsRemoved()
    {
        routes.addKey(utf8("k"), "w");
        routes.addKey(utf8("k"), "w");
        routes.addRange(utf8("k"), utf8("l"), "w");
        routes.addRange(utf8("k"), utf8("l"), "w");
        routes.addAll("w");
        routes.addAll("w");
        assertEquals(6, routes.size());
        assertEquals(List.of("w", "w", "w", "w", "w", "w"), route(utf8("k")));

        assertTrue(routes.removeKey(utf8("k"), "w"));
        assertTrue(routes.removeRange(utf8("k"), utf8("l"), "w"));
        assertTrue(routes.removeAll("w"));

        assertEquals(3, routes.size());
        assertEquals(List.of("w", "w", "w"), route(utf8("k")));
    }

    @Test
    void keysCompareAsUnsignedBytesAcrossTheSignBoundary()
    {
        routes.addRange(bytes(0x7F), bytes(0x80), "only7F");
        routes.addRange(bytes(0x7F), bytes(0x81), "7Fto80");
        routes.addRange(bytes(0x80), bytes(0xFF), "80toFE");
        routes.addRange(bytes(0x80), null, "from80");
        routes.addRange(bytes(0x00), bytes(0x01), "only00");

        assertEquals(List.of("only00"), route(bytes(0x00)));
        assertEquals(List.of("only7F", "7Fto80"), route(bytes(0x7F)));
        assertEquals(List.of("only7F", "7Fto80"), route(bytes(0x7F, 0xFF, 0xFF)));
        assertEquals(List.of("7Fto80", "80toFE", "from80"), route(bytes(0x80)));
        assertEquals(List.of("80toFE", "from80"), route(bytes(0xFE, 0xFF)));
        assertEquals(List.of("from80"), route(bytes(0xFF)));
        assertEquals(List.of("from80"), route(bytes(0xFF, 0x00)));
    }

    @Test
    void exactKeysWithHighBytesAreDistinct()
    {
        routes.addKey(bytes(0x7F), "7F");
        routes.addKey(bytes(0x80), "80");
        routes.addKey(bytes(0xFF), "FF");
        routes.addKey(bytes(0xFF, 0x00), "FF00");

        assertEquals(List.of("7F"), route(bytes(0x7F)));
        assertEquals(List.of("80"), route(bytes(0x80)));
        assertEquals(List.of("FF"), route(bytes(0xFF)));
        assertEquals(List.of("FF00"), route(bytes(0xFF, 0x00)));
    }

    @Test
    void routesKeepTheirOwnCopyOfKeyBytes()
    {
        final byte[] key = utf8("k");
        final byte[] from = utf8("a");
        final byte[] to = utf8("c");
        routes.addKey(key, "key");
        routes.addRange(from, to, "range");

        key[0] = 'x';
        from[0] = 'x';
        to[0] = 'y';

        assertEquals(List.of("key"), route(utf8("k")));
        assertEquals(List.of("range"), route(utf8("b")));
    }

    @Test
    void badArgumentsAreRejectedAndChangeNothing()
    {
        routes.addKey(utf8("k"), "w");

        assertThrows(IllegalArgumentException.class, () -> routes.addKey(null, "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.addKey(utf8("k"), null));
        assertThrows(IllegalArgumentException.class, () -> routes.addRange(null, utf8("z"), "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.addRange(utf8("a"), utf8("z"), null));
        assertThrows(IllegalArgumentException.class, () -> routes.addRange(utf8("b"), utf8("b"), "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.addRange(utf8("b"), utf8("a"), "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.addRange(bytes(0x80), bytes(0x7F), "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.removeRange(utf8("b"), utf8("a"), "w"));
        assertThrows(IllegalArgumentException.class, () -> routes.addAll(null));
        assertThrows(IllegalArgumentException.class, () -> routes.removeKey(utf8("k"), null));
        assertThrows(IllegalArgumentException.class, () -> routes.removeAll(null));
        assertThrows(IllegalArgumentException.class, () -> routes.route(null, 0, 0, w -> { }));
        assertThrows(IllegalArgumentException.class, () -> routes.route(new UnsafeBuffer(utf8("k")), 0, 1, null));
        assertThrows(IllegalArgumentException.class, () -> routes.route(new UnsafeBuffer(utf8("k")), 0, -1, w -> { }));
        assertThrows(IndexOutOfBoundsException.class, () -> routes.route(new UnsafeBuffer(utf8("k")), 0, 2, w -> { }));

        assertEquals(1, routes.size());
        assertEquals(List.of("w"), route(utf8("k")));
    }

    @Test
    void changingRoutesFromInsideAVisitorIsRefused()
    {
        routes.addKey(utf8("k"), "w");
        final UnsafeBuffer key = new UnsafeBuffer(utf8("k"));

        assertThrows(IllegalStateException.class, () -> routes.route(key, 0, 1, w -> routes.addAll("sneaky")));
        assertThrows(IllegalStateException.class, () -> routes.route(key, 0, 1, w -> routes.removeKey(utf8("k"), w)));

        assertEquals(1, routes.size());
        assertEquals(List.of("w"), route(utf8("k")));
    }

    @Test
    void visitorExceptionPropagatesAndRoutesStayUsable()
    {
        routes.addKey(utf8("k"), "w");
        final UnsafeBuffer key = new UnsafeBuffer(utf8("k"));

        assertThrows(IllegalStateException.class, () -> routes.route(key, 0, 1, w ->
        {
            throw new IllegalStateException("watcher failed");
        }));

        routes.addAll("later");
        assertEquals(List.of("later", "w"), route(utf8("k")));
    }

    @Test
    void hundredThousandExactKeysAndAThousandRangesRouteCorrectly()
    {
        final WatchRoutes<Integer> big = new WatchRoutes<>();
        final int keys = 100_000;
        for (int i = 0; i < keys; i++)
        {
            big.addKey(key(i), i);
        }
        // Range r covers keys [100r, 100r + 50): every key with i % 100 < 50 is in exactly one range.
        for (int r = 0; r < 1000; r++)
        {
            big.addRange(key(100 * r), key(100 * r + 50), -1 - r);
        }
        assertEquals(101_000, big.size());

        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        final List<Integer> matches = new ArrayList<>();
        for (int i = 0; i < keys; i++)
        {
            final byte[] key = key(i);
            buffer.putBytes(0, key);
            matches.clear();
            big.route(buffer, 0, key.length, matches::add);

            final List<Integer> expected = i % 100 < 50 ? List.of(i, -1 - i / 100) : List.of(i);
            assertEquals(expected, matches, "key " + i);
        }

        buffer.putBytes(0, utf8("key/x"));
        matches.clear();
        assertEquals(0, big.route(buffer, 0, 5, matches::add));
    }

    @Test
    void rangeWatchersWithEqualHashCodesAreRemovedByEquality()
    {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        routes.addRange(utf8("a"), utf8("c"), "Aa");
        routes.addRange(utf8("a"), utf8("c"), "BB");
        routes.addRange(utf8("a"), utf8("c"), "Aa");

        assertTrue(routes.removeRange(utf8("a"), utf8("c"), "BB"));
        assertFalse(routes.removeRange(utf8("a"), utf8("c"), "BB"));

        assertEquals(List.of("Aa", "Aa"), route(utf8("b")));
    }

    @Test
    void manyWatchersOfOneRangeAreRemovedOneByOne()
    {
        final WatchRoutes<Integer> shared = new WatchRoutes<>();
        final byte[] prefix = utf8("pods/");
        final byte[] end = Keys.prefixEnd(prefix);
        final int watchers = 20_000;
        for (int i = 0; i < watchers; i++)
        {
            shared.addRange(prefix, end, i);
        }
        final UnsafeBuffer key = new UnsafeBuffer(utf8("pods/a"));

        for (int i = 0; i < watchers; i += 2)
        {
            assertTrue(shared.removeRange(prefix, end, i), "watcher " + i);
        }
        final List<Integer> matches = new ArrayList<>();
        assertEquals(watchers / 2, shared.route(key, 0, key.capacity(), matches::add));
        assertTrue(matches.stream().allMatch(w -> w % 2 == 1));

        for (int i = 1; i < watchers; i += 2)
        {
            assertTrue(shared.removeRange(prefix, end, i), "watcher " + i);
        }
        assertFalse(shared.removeRange(prefix, end, 1));
        assertEquals(0, shared.size());
        assertEquals(0, shared.route(key, 0, key.capacity(), w -> { }));
    }

    private List<String> route(final byte[] key)
    {
        final List<String> matches = new ArrayList<>();
        final int count = routes.route(new UnsafeBuffer(key), 0, key.length, matches::add);
        assertEquals(matches.size(), count);
        return matches;
    }

    private static byte[] key(final int i)
    {
        return utf8(String.format("key/%06d", i));
    }

    static byte[] utf8(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(final int... values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte)values[i];
        }
        return bytes;
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] result = new byte[a.length + b.length];
        System.arraycopy(a, 0, result, 0, a.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }
}
