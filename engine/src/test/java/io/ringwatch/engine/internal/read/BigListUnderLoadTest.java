package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.WatchRequest;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 17's scenario at a default-run size: many keys under {@code /pods/} with 100-byte
 * values, one producer overwriting them round-robin with {@code DirectWriter.putAsync} as fast
 * as it can, and consistent reads of the whole prefix meanwhile, with a watch window far too
 * small to repair a scan (which made every read fail before pinned reads). Every read must
 * succeed and equal the state at its revision, which the test derives from the write order
 * alone: one producer, so write j after the initial load has revision {@code keys + 1 + j} and
 * writes key {@code j % keys} with a value naming j. {@code -Dringwatch.long=true} reads
 * 1,000,000 keys. The persistence module runs the same scenario over an ASYNC log
 * ({@code BigListUnderLoadAsyncLogTest}; a SYNC load of one forced put at a time would take minutes).
 */
class BigListUnderLoadTest
{
    private static final int KEYS = Boolean.getBoolean("ringwatch.long") ? 1_000_000 : 150_000;
    private static final int READS = 3;
    private static final int MAX_READS = 100;
    private static final int VALUE_BYTES = 100;

    @Test
    void everyReadOfALargePrefixSucceedsExactlyAtItsRevisionWhileTheWriterGoesFlatOut() throws Exception
    {
        try (RingWatch engine = RingWatch.open(configure(RingWatchConfig.builder()
            .windowCapacity(1024, 1024)
            .indexInitialCapacity(KEYS)).build()))
        {
            load(engine);
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicReference<RingWatchException> writeError = new AtomicReference<>();
            final AtomicLong written = new AtomicLong();
            final Thread producer = new Thread(() -> overwrite(engine, stop, written, writeError), "producer");
            producer.start();
            try
            {
                while (written.get() < KEYS / 10)
                {
                    Thread.onSpinWait();
                }
                // The writer must go on during reads (a read never pauses it); on a loaded machine
                // the producer may not be scheduled during one fast read, so read until READS of
                // them overlapped writes, each exact, within a bound no healthy run comes near.
                int overlapped = 0;
                for (int i = 0; i < MAX_READS && overlapped < READS; i++)
                {
                    final long before = written.get();
                    final RangeResult result = engine.range(KeyRange.prefix("/pods/"), 0);
                    assertExactAt(result.revision(), result.kvs());
                    overlapped += written.get() > before ? 1 : 0;
                }
                assertEquals(READS, overlapped, "reads during which the writer went on, of at most " + MAX_READS);
                final var list = engine.listAndWatchPull(WatchRequest.of(KeyRange.prefix("/pods/")));
                assertExactAt(list.snapshot().revision(), list.snapshot().kvs());
                list.watcher().close();
                final long counted = engine.count(KeyRange.prefix("/pods/"));
                assertEquals(KEYS, counted);
            }
            finally
            {
                stop.set(true);
                producer.join();
            }
            assertNull(writeError.get());
        }
    }

    /**
     * @param builder the scenario's in-memory settings.
     * @return the builder of the engine to read from; a subclass adds persistence.
     */
    RingWatchConfig.Builder configure(final RingWatchConfig.Builder builder)
    {
        return builder;
    }

    private static void load(final RingWatch engine)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
        for (int k = 0; k < KEYS; k++)
        {
            writer.put(key, 0, key(key, k), value, 0, value(value, -1 - k));
        }
    }

    private static void overwrite(
        final RingWatch engine, final AtomicBoolean stop, final AtomicLong written,
        final AtomicReference<RingWatchException> error)
    {
        final DirectWriter writer = engine.newDirectWriter();
        final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_BYTES]);
        final WriteCallback callback = new WriteCallback()
        {
            @Override
            public void onWritten(final long revision, final boolean succeeded, final long deleted)
            {
            }

            @Override
            public void onFailed(final RingWatchException e)
            {
                error.compareAndSet(null, e);
            }
        };
        for (long j = 0; !stop.get(); j++)
        {
            writer.putAsync(key, 0, key(key, (int)(j % KEYS)), value, 0, value(value, j), callback);
            written.lazySet(j + 1);
        }
    }

    private static void assertExactAt(final long revision, final List<KeyValue> kvs)
    {
        assertEquals(KEYS, kvs.size(), "keys at revision " + revision);
        final long writes = revision - KEYS;
        for (int k = 0; k < KEYS; k++)
        {
            final KeyValue kv = kvs.get(k);
            assertEquals(keyString(k), kv.keyAsString());
            // The last write of key k at or before the revision, or the initial load's.
            final long last = writes <= k ? -1 - k : k + (writes - 1 - k) / KEYS * KEYS;
            final long modRevision = last < 0 ? k + 1 : KEYS + 1 + last;
            assertEquals(modRevision, kv.modRevision(), "modRevision of " + kv.keyAsString() + " at " + revision);
            assertTrue(kv.valueAsString().startsWith("v" + last + "."), "value of " + kv.keyAsString() + " at " + revision);
        }
    }

    private static int key(final UnsafeBuffer buffer, final int k)
    {
        final byte[] bytes = keyString(k).getBytes(StandardCharsets.US_ASCII);
        buffer.putBytes(0, bytes);
        return bytes.length;
    }

    private static String keyString(final int k)
    {
        return String.format("/pods/%07d", k);
    }

    private static int value(final UnsafeBuffer buffer, final long j)
    {
        final byte[] prefix = ("v" + j + ".").getBytes(StandardCharsets.US_ASCII);
        buffer.setMemory(0, VALUE_BYTES, (byte)'x');
        buffer.putBytes(0, prefix);
        return VALUE_BYTES;
    }
}
