package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WatcherRoutesTest
{
    @Test
    void everyKeyRoutesToExactlyTheFanoutWatchersOfItsGroup()
    {
        final Workload workload = new Workload(40, 16, 8, 12, 3, 0);
        final WatcherRoutes routes = new WatcherRoutes();
        final List<LatencyRecorder> watchers = new ArrayList<>();
        for (int w = 0; w < workload.watchers(); w++)
        {
            final LatencyRecorder deliveries = new LatencyRecorder();
            watchers.add(deliveries);
            routes.add(workload.watcherPrefix(w), deliveries);
        }

        final LatencyRecorder[][] byKey = routes.byKey(workload);

        assertEquals(workload.keyCount(), byKey.length);
        for (int k = 0; k < workload.keyCount(); k++)
        {
            final List<LatencyRecorder> expected = new ArrayList<>();
            for (int w = 0; w < workload.watchers(); w++)
            {
                if (startsWith(workload.key(k), workload.watcherPrefix(w)))
                {
                    expected.add(watchers.get(w));
                }
            }
            assertEquals(workload.watchersPerWrite(), byKey[k].length, "key " + k);
            assertEquals(expected, Arrays.asList(byKey[k]), "key " + k);
        }
    }

    @Test
    void aKeyUnderNestedPrefixesReachesTheWatchersOfEach()
    {
        final Workload workload = new Workload(4, 16, 8, 2, 1, 0);
        final byte[] key = workload.key(1);
        final LatencyRecorder group = new LatencyRecorder();
        final LatencyRecorder exact = new LatencyRecorder();
        final LatencyRecorder everything = new LatencyRecorder();
        final WatcherRoutes routes = new WatcherRoutes();
        routes.add(workload.watcherPrefix(1), group);
        routes.add(key, exact);
        routes.add(new byte[0], everything);

        final LatencyRecorder[][] byKey = routes.byKey(workload);

        assertEquals(List.of(everything, group, exact), Arrays.asList(byKey[1]));
        assertEquals(List.of(everything), Arrays.asList(byKey[0]));
        assertEquals(List.of(everything, group), Arrays.asList(byKey[3]));
    }

    @Test
    void keysOfOneGroupShareItsWatcherArray()
    {
        final Workload workload = new Workload(10, 16, 8, 2, 1, 0);
        final WatcherRoutes routes = new WatcherRoutes();
        routes.add(workload.watcherPrefix(0), new LatencyRecorder());
        routes.add(workload.watcherPrefix(1), new LatencyRecorder());

        final LatencyRecorder[][] byKey = routes.byKey(workload);

        assertSame(byKey[0], byKey[2]);
        assertSame(byKey[1], byKey[9]);
        assertTrue(byKey[0] != byKey[1]);
    }

    private static boolean startsWith(final byte[] key, final byte[] prefix)
    {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
