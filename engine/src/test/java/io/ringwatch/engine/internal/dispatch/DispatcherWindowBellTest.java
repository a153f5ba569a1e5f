package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate through which the writer rings a dispatcher ({@link WatchHub#dispatcherDoorbells()}) is open
 * exactly while a watcher is registered on its shard: closed before the first, opened by the dispatcher
 * as it takes a registration, closed again once the last is removed. The dispatcher changes it on its own
 * thread, so the test waits for it; the waits are a safety net, not what decides.
 */
class DispatcherWindowBellTest
{
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private WatchHub hub;

    @AfterEach
    void close()
    {
        if (hub != null)
        {
            hub.close();
        }
    }

    @Test
    void theWritersRingsGoThroughOnlyWhileAWatcherIsRegistered()
    {
        open(1);
        final GatedDoorbell bell = hub.dispatcherDoorbells()[0];
        assertFalse(bell.isOpen(), "no watcher yet");

        final Watcher push = hub.watch(WatchRequest.of(KeyRange.key("a")), events -> { });
        awaitTrue(bell::isOpen, "the gate opened for the push watcher");
        final PullWatcher pull = hub.watchPull(WatchRequest.of(KeyRange.prefix("b")));

        push.cancel();
        awaitTrue(() -> hub.watcherCount() == 1, "the push watcher removed");
        assertTrue(bell.isOpen(), "the pull watcher is still registered");

        pull.cancel();
        awaitTrue(() -> !bell.isOpen(), "the gate closed with the last watcher");
    }

    @Test
    void eachDispatcherOpensItsOwnGate()
    {
        open(2);
        final GatedDoorbell[] bells = hub.dispatcherDoorbells();
        // Ids go round-robin over the shards: the first watcher lands on one of them.
        final Watcher first = hub.watch(WatchRequest.of(KeyRange.key("a")), events -> { });
        awaitTrue(() -> bells[0].isOpen() || bells[1].isOpen(), "the first watcher's shard opened its gate");
        assertTrue(bells[0].isOpen() != bells[1].isOpen(), "only that shard's gate is open");

        final Watcher second = hub.watch(WatchRequest.of(KeyRange.key("a")), events -> { });
        awaitTrue(() -> bells[0].isOpen() && bells[1].isOpen(), "the second watcher's shard opened its gate");
        first.cancel();
        second.cancel();
        awaitTrue(() -> !bells[0].isOpen() && !bells[1].isOpen(), "both closed");
    }

    private void open(final int dispatchers)
    {
        final RingWatchConfig config = RingWatchConfig.builder().dispatcherThreads(dispatchers).build();
        final WatchWindow window = new WatchWindow(WindowConfig.builder().build(), SystemNanoClock.INSTANCE);
        hub = new WatchHub(config, window, () -> 0, () -> 0, null, name ->
        {
            throw new AssertionError("no index: " + name);
        });
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting: " + what);
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
