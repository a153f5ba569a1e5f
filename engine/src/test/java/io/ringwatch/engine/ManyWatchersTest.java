package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchEvent;
import io.ringwatch.engine.watch.WatchListener;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * 100,000 watchers on distinct keys plus prefix watchers: every one receives exactly its events.
 */
class ManyWatchersTest
{
    private static final int KEY_WATCHERS = 100_000;
    private static final int PREFIXES = 10;

    @Test
    void aHundredThousandKeyWatchersAndPrefixWatchersAllReceiveTheirEvents()
    {
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().dispatcherThreads(2).deliveryThreads(2).build()))
        {
            final AtomicIntegerArray perKey = new AtomicIntegerArray(KEY_WATCHERS);
            final AtomicIntegerArray wrongKey = new AtomicIntegerArray(1);
            final List<Watcher> watchers = new ArrayList<>(KEY_WATCHERS);
            for (int i = 0; i < KEY_WATCHERS; i++)
            {
                final int index = i;
                final byte[] key = key(i);
                watchers.add(engine.watch(WatchRequest.of(KeyRange.key(key)), batch ->
                {
                    for (int e = 0; e < batch.size(); e++)
                    {
                        if (KeyRange.compare(batch.get(e).keyBuffer(), batch.get(e).keyLength(), key) == 0)
                        {
                            perKey.incrementAndGet(index);
                        }
                        else
                        {
                            wrongKey.incrementAndGet(0);
                        }
                    }
                }));
            }
            final AtomicLong[] perPrefix = new AtomicLong[PREFIXES];
            for (int p = 0; p < PREFIXES; p++)
            {
                perPrefix[p] = new AtomicLong();
                engine.watch(WatchRequest.of(KeyRange.prefix("k/" + p + "/")), counting(perPrefix[p]));
            }

            final List<CompletableFuture<WriteResult>> writes = new ArrayList<>(KEY_WATCHERS);
            for (int i = 0; i < KEY_WATCHERS; i++)
            {
                writes.add(engine.writeAsync(Op.put(key(i), Keys.utf8("v"))));
            }
            writes.forEach(CompletableFuture::join);
            assertEquals(KEY_WATCHERS, engine.currentRevision());

            RecordingListener.await(() ->
            {
                long total = 0;
                for (final AtomicLong count : perPrefix)
                {
                    total += count.get();
                }
                return total == KEY_WATCHERS;
            }, "every prefix event");
            RecordingListener.await(() ->
            {
                for (int i = 0; i < KEY_WATCHERS; i++)
                {
                    if (perKey.get(i) == 0)
                    {
                        return false;
                    }
                }
                return true;
            }, "every key watcher's event");
            for (int i = 0; i < KEY_WATCHERS; i++)
            {
                assertEquals(1, perKey.get(i), "watcher of " + new String(key(i)));
            }
            assertEquals(0, wrongKey.get(0));
            for (int p = 0; p < PREFIXES; p++)
            {
                assertEquals(KEY_WATCHERS / PREFIXES, perPrefix[p].get(), "prefix k/" + p + "/");
            }
            assertEquals(KEY_WATCHERS + PREFIXES, engine.watcherCount());
            watchers.forEach(Watcher::cancel);
        }
    }

    private static byte[] key(final int i)
    {
        return Keys.utf8("k/" + (i % PREFIXES) + "/" + i);
    }

    private static WatchListener counting(final AtomicLong count)
    {
        return (EventBatch batch) ->
        {
            for (int e = 0; e < batch.size(); e++)
            {
                final WatchEvent event = batch.get(e);
                if (event.revision() > 0)
                {
                    count.incrementAndGet();
                }
            }
        };
    }
}
