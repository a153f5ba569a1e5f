package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import org.junit.jupiter.api.Test;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values of the largest size the engine takes, written one after another, do not pile up in the
 * write ring's slots: each slot used to keep the largest change record it carried (a 1 MB value
 * and its previous one, 2.8 MB of direct memory), so 754 such puts reached a 2 GiB direct memory
 * limit and failed the writer. The change records are freed once their commands are complete, at
 * once rather than by a collection, so direct memory stays flat without any GC here.
 */
class HugeValuesMemoryTest
{
    private static final int PUTS = 400;
    private static final long ALLOWED_GROWTH = 96L << 20;

    @Test
    void fourHundredPutsOfOneMegabyteHoldNoMoreThanTheirKeysInDirectMemory()
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().name("huge-values").build()))
        {
            final byte[] value = new byte[1_000_000];
            final long before = directMemoryUsed();
            for (int i = 0; i < PUTS; i++)
            {
                value[0] = (byte)i;
                engine.put(("huge/" + (i % 8)).getBytes(StandardCharsets.UTF_8), value);
            }
            final long grown = directMemoryUsed() - before;
            assertTrue(grown < ALLOWED_GROWTH, "direct memory grew by " + (grown >> 20) + " MiB over " + PUTS +
                " puts of 1 MB over 8 keys; allowed " + (ALLOWED_GROWTH >> 20) + " MiB");
            value[0] = (byte)(PUTS - 1);
            assertArrayEquals(value, engine.get(("huge/" + ((PUTS - 1) % 8)).getBytes(StandardCharsets.UTF_8)).orElseThrow().value());
        }
    }

    private static long directMemoryUsed()
    {
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool");
    }
}
