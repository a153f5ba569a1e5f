package io.ringwatch.engine.internal.dispatch;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExactKeyTableTest
{
    private final ExactKeyTable table = new ExactKeyTable();

    @Test
    void keepsTheCallersKeyArrayAsTheKeyWithNoCopyOrWrapper()
    {
        final byte[] key = utf8("a/b");
        table.put(key, "w1");
        table.put(utf8("a/b"), "w2");

        assertSame(key, table.storedKey(utf8("a/b")));
        assertEquals("w2", table.get(utf8("a/b"), 3));
        assertEquals(1, table.size());
    }

    @Test
    void findsAKeyByAPrefixOfALongerBuffer()
    {
        table.put(utf8("ab"), "w");

        assertEquals("w", table.get(utf8("abcdef"), 2));
        assertNull(table.get(utf8("abcdef"), 3));
        assertNull(table.get(utf8("abcdef"), 1));
    }

    @Test
    void theEmptyKeyIsAKeyLikeAnyOther()
    {
        table.put(new byte[0], "empty");

        assertEquals("empty", table.get(utf8("x"), 0));
        assertEquals("empty", table.remove(new byte[0]));
        assertTrue(table.isEmpty());
    }

    @Test
    void agreesWithAHashMapUnderRandomPutsAndRemovesThroughGrowthAndShrinkingClusters()
    {
        final long seed = System.nanoTime();
        System.out.println("ExactKeyTableTest seed " + seed);
        final Random random = new Random(seed);
        final Map<String, Object> model = new HashMap<>();
        final List<String> universe = new ArrayList<>();
        for (int i = 0; i < 3_000; i++)
        {
            // Short keys of few distinct bytes collide often, which exercises the probe chains and their repair.
            universe.add("k" + Integer.toString(random.nextInt(5_000), 3));
        }
        for (int step = 0; step < 100_000; step++)
        {
            final String key = universe.get(random.nextInt(universe.size()));
            if (random.nextInt(3) == 0)
            {
                assertEquals(model.remove(key), table.remove(utf8(key)), "remove " + key + ", seed " + seed);
            }
            else
            {
                final Object value = step;
                model.put(key, value);
                table.put(utf8(key), value);
            }
            assertEquals(model.size(), table.size(), "seed " + seed);
        }
        for (final String key : universe)
        {
            final byte[] bytes = utf8(key);
            assertEquals(model.get(key), table.get(bytes, bytes.length), "get " + key + ", seed " + seed);
        }
        for (final String key : model.keySet().toArray(new String[0]))
        {
            assertEquals(model.remove(key), table.remove(utf8(key)), "seed " + seed);
        }
        assertTrue(table.isEmpty());
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
