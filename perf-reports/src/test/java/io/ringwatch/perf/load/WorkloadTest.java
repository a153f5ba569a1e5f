package io.ringwatch.perf.load;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadTest
{
    @Test
    void everyKeyReachesExactlyFanoutWatchers()
    {
        final Workload workload = new Workload(1_000, 24, 16, 120, 3, 0);

        for (int k = 0; k < workload.keyCount(); k++)
        {
            final byte[] key = workload.key(k);
            int matching = 0;
            for (int w = 0; w < workload.watchers(); w++)
            {
                final byte[] prefix = workload.watcherPrefix(w);
                if (key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length))
                {
                    matching++;
                }
            }
            assertEquals(3, matching, new String(key, StandardCharsets.US_ASCII));
        }
        assertEquals(3, workload.watchersPerWrite());
        assertEquals(40, workload.groups());
    }

    @Test
    void keysAreDistinctAndPaddedToTheKeySize()
    {
        final Workload workload = new Workload(500, 20, 8, 10, 1, 0);

        for (int k = 0; k < workload.keyCount(); k++)
        {
            assertEquals(20, workload.key(k).length);
            for (int other = k + 1; other < workload.keyCount(); other++)
            {
                assertFalse(Arrays.equals(workload.key(k), workload.key(other)), k + " vs " + other);
            }
        }
        assertEquals("/g3/0000000000000023", new String(workload.key(23), StandardCharsets.US_ASCII));
    }

    @Test
    void theLastWatchersArePullWatchers()
    {
        final Workload workload = new Workload(10, 16, 8, 10, 1, 3);

        assertFalse(workload.isPull(6));
        assertTrue(workload.isPull(7));
        assertTrue(workload.isPull(9));
    }

    @Test
    void noWatchersMeansNoDeliveries()
    {
        assertEquals(0, new Workload(10, 16, 8, 0, 1, 0).watchersPerWrite());
    }

    @Test
    void refusesAShapeItCannotHonour()
    {
        assertThrows(IllegalArgumentException.class, () -> new Workload(0, 16, 8, 10, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(10, 16, 7, 10, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(10, 16, 8, 10, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> new Workload(10, 16, 8, 10, 1, 11));
        assertThrows(IllegalArgumentException.class, () -> new Workload(100_000, 8, 8, 1_000, 1, 0));
    }
}
