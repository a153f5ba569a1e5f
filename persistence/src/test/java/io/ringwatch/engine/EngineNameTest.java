package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.informer.InformerConfig;
import io.ringwatch.informer.SharedInformer;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineNameTest
{
    @TempDir
    Path dir;

    @Test
    void everyThreadAnEngineStartsCarriesItsNameSoTwoEnginesCanBeToldApart() throws Exception
    {
        final Set<String> before = threadNames();
        try (RingWatch alpha = RingWatch.open(RingWatchConfig.builder().name("alpha")
                .persistence(LogConfig.builder(dir).build()).snapshotEveryRevisions(1).build());
             RingWatch beta = RingWatch.open(RingWatchConfig.builder().name("beta").build());
             SharedInformer pods = SharedInformer.forRange(alpha, KeyRange.prefix("/pods/"));
             SharedInformer named = SharedInformer.forRange(beta, KeyRange.prefix("/nodes/"),
                 InformerConfig.builder().name("nodes").build());
             Watcher watch = alpha.watch(WatchRequest.of(KeyRange.all()), batch -> { }))
        {
            assertEquals("alpha", alpha.name());
            pods.start();
            named.start();
            alpha.put("/pods/a", "1");
            assertTrue(alpha.waitForRevision(1, Duration.ofSeconds(10)));

            final Set<String> started = threadNames();
            started.removeAll(before);
            // Chronicle Queue names its own threads with a '~'; the JDK starts a process reaper.
            started.removeIf(name -> name.contains("~") || name.equals("process reaper") || name.startsWith("ForkJoinPool"));
            for (final String name : started)
            {
                assertTrue(name.startsWith("alpha-") || name.startsWith("beta-"),
                    "a thread without its engine's name: " + name + " in " + started);
            }
            for (final String role : new String[]{"writer", "journal", "dispatcher-0", "delivery-0", "housekeeper", "snapshotter"})
            {
                assertTrue(started.contains("alpha-" + role), role + " missing in " + started);
            }
            assertTrue(started.contains("beta-writer"), started.toString());
            assertTrue(started.contains("alpha-informer"), "an informer without a name is <engine>-informer: " + started);
            assertTrue(started.contains("beta-informer-nodes"), started.toString());
        }
    }

    @Test
    void theDefaultNameIsRingwatch() throws Exception
    {
        try (RingWatch engine = RingWatch.open())
        {
            assertEquals(RingWatchConfig.DEFAULT_NAME, engine.name());
            TimeUnit.MILLISECONDS.sleep(1);
            assertTrue(threadNames().contains("ringwatch-writer"));
        }
    }

    @Test
    void aNameThatIsEmptyTooLongOrUnsafeInThreadNamesAndTagsIsRefused()
    {
        for (final String bad : new String[]{null, "", "a b", "x/y", "é", "a".repeat(RingWatchConfig.MAX_NAME_LENGTH + 1)})
        {
            assertThrows(InvalidRequestException.class, () -> RingWatchConfig.builder().name(bad), String.valueOf(bad));
        }
        assertEquals("orders-1.eu_west", RingWatchConfig.builder().name("orders-1.eu_west").build().name());
    }

    private static Set<String> threadNames()
    {
        final Set<String> names = new TreeSet<>();
        for (final Thread t : Thread.getAllStackTraces().keySet())
        {
            names.add(t.getName());
        }
        return names;
    }
}
