package io.ringwatch.engine.acceptance;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Two threads close a persistent engine at once while a push listener blocks (so the first close
 * is still waiting for delivery), and the second caller, once its {@code close()} returns, reopens
 * the directory, as an application's shutdown hook and its main thread both do. Found failing on
 * main 693a712: the second close returned at once while the first still held the log, so the reopen
 * was refused with the directory's lock (or could have raced the first close's last appends). A
 * close that returned must mean closed: the reopen succeeds and finds every acknowledged write, and
 * a put after the close is refused with a typed error. Deterministic: the listener is released only
 * once the second closer is seen waiting inside {@code close()} (or has returned, the old behaviour).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConcurrentCloseTest
{
    @ParameterizedTest
    @EnumSource(value = Scenario.Mode.class, names = {"ASYNC", "SYNC"})
    void aSecondCloseReturnsOnlyOnceTheEngineIsClosed(final Scenario.Mode mode, @TempDir final Path dir) throws Exception
    {
        final RingWatchConfig config = mode.builder(dir).slowListenerTimeout(Duration.ofSeconds(600)).build();
        final TreeMap<String, String> acknowledged = new TreeMap<>();
        final RingWatch engine = RingWatch.open(config);
        final CountDownLatch listenerBlocked = new CountDownLatch(1);
        final CountDownLatch releaseListener = new CountDownLatch(1);
        engine.watch(WatchRequest.of(KeyRange.prefix("block")), events ->
        {
            listenerBlocked.countDown();
            awaitUninterruptibly(releaseListener);
        });
        for (int i = 0; i < 100; i++)
        {
            engine.put("k" + i, "v" + i);
            acknowledged.put("k" + i, "v" + i);
        }
        engine.put("block", "1");
        acknowledged.put("block", "1");
        listenerBlocked.await();

        final Thread first = new Thread(engine::close, "first-closer");
        first.start();
        Scenario.await(() -> isClosed(engine), "the first close to begin");

        final AtomicReference<Throwable> reopenFailure = new AtomicReference<>();
        final AtomicReference<TreeMap<String, String>> reopened = new AtomicReference<>();
        final Thread second = new Thread(() ->
        {
            engine.close();
            try (RingWatch again = RingWatch.open(config))
            {
                final TreeMap<String, String> state = new TreeMap<>();
                for (final KeyValue kv : again.range(KeyRange.all(), 0).kvs())
                {
                    state.put(kv.keyAsString(), kv.valueAsString());
                }
                reopened.set(state);
            }
            catch (final Throwable t)
            {
                reopenFailure.set(t);
            }
        }, "second-closer");
        second.start();
        Scenario.await(() -> second.getState() == Thread.State.WAITING || !second.isAlive(),
            "the second closer to wait inside close() or return");
        releaseListener.countDown();
        second.join();
        first.join();
        assertNull(reopenFailure.get(), () -> "the reopen after the second close failed: " + reopenFailure.get());
        assertEquals(acknowledged, reopened.get());
        assertThrows(EngineClosedException.class, () -> engine.put("late", "x"));
    }

    private static boolean isClosed(final RingWatch engine)
    {
        try
        {
            engine.count(KeyRange.all());
            return false;
        }
        catch (final EngineClosedException e)
        {
            return true;
        }
    }

    private static void awaitUninterruptibly(final CountDownLatch latch)
    {
        while (true)
        {
            try
            {
                latch.await();
                return;
            }
            catch (final InterruptedException ignore)
            {
                // Close may interrupt; the test decides when the listener returns.
            }
        }
    }
}
