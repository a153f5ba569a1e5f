package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A read at a past revision holds one pre-image per key changed since that revision, not one per
 * change: each page of a paginated LIST at revision R, read while a writer changes the same keys
 * over and over, would otherwise hold every change since R (on 67f4862 the persistence module's
 * {@code PaginatedListScenarioTest} ran out of a 2 GiB heap under load). Checked by what the read
 * allocates on its thread: 17.2 MB when it kept a pre-image of each of the 200,000 changes since
 * R (a 40-byte header, key and value each, their addresses and the merge's sort), 11.8 KB when it
 * keeps the two keys' first changes.
 */
class PastReadFootprintTest
{
    private static final int CHANGES = 200_000;
    /** Well below the 9.6 MB that 200,000 pre-images of 48 bytes take, well above the read's own needs. */
    private static final long MOST_BYTES = 1L << 20;

    @Test
    void aReadAtAPastRevisionHoldsOnePreImagePerKeyNotPerChange()
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1 << 19, 1 << 19).build()))
        {
            engine.put("a", "a0");
            final long at = engine.put("b", "b0").revision();
            for (int i = 1; i <= CHANGES; i++)
            {
                engine.put(i % 2 == 0 ? "a" : "b", "v" + i % 10);
            }
            // A first read warms the code paths up, so the measured one counts only the read's data.
            engine.range(KeyRange.all(), 0, at);
            final long before = threads.getCurrentThreadAllocatedBytes();
            final RangeResult past = engine.range(KeyRange.all(), 0, at);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            assertEquals(at, past.revision());
            assertEquals(List.of("a=a0@1", "b=b0@2"), strings(past));
            assertTrue(allocated < MOST_BYTES, "the read allocated " + allocated + " bytes for two keys changed " + CHANGES + " times");
        }
    }

    private static List<String> strings(final RangeResult result)
    {
        final List<String> out = new ArrayList<>();
        for (final KeyValue kv : result.kvs())
        {
            out.add(new String(kv.key(), StandardCharsets.UTF_8) + "=" + new String(kv.value(), StandardCharsets.UTF_8) + "@" + kv.modRevision());
        }
        return out;
    }
}
