package io.ringwatch.engine.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.RingBuffer;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

class BatchPrefetchTest
{
    private static final int RING = 256;

    private final RingBuffer<WriteCommand> ring = RingBuffer.createMultiProducer(WriteCommand::new, RING);
    private final OffHeapIndex index = new OffHeapIndex(64);
    private final BatchPrefetch prefetch = new BatchPrefetch(ring, index);

    @BeforeEach
    void fillSlots()
    {
        final IndexEntry prev = new IndexEntry();
        for (int s = 0; s < RING; s++)
        {
            final WriteCommand command = ring.get(s);
            command.reset(WriteCommand.PUT, null, null);
            command.key(("key/" + s % 50).getBytes(StandardCharsets.US_ASCII));
            if (s < 50)
            {
                final UnsafeBuffer key = new UnsafeBuffer(command.key, 0, command.keyLength);
                index.put(key, 0, key.capacity(), key, 0, key.capacity(), s + 1, prev);
            }
        }
    }

    @Test
    void aBatchOfOneTouchesNothing()
    {
        prefetch.batchStarted(1);
        prefetch.before(7);

        assertEquals(-1, prefetch.touchedThrough());
    }

    @Test
    void aShortBatchIsTouchedOnceToItsEnd()
    {
        prefetch.batchStarted(5);
        prefetch.before(0);
        assertEquals(4, prefetch.touchedThrough());

        for (long s = 1; s <= 4; s++)
        {
            prefetch.before(s);
            assertEquals(4, prefetch.touchedThrough());
        }
    }

    @Test
    void aLongBatchIsTouchedAheadStepByStepAndNeverPastItsEnd()
    {
        prefetch.batchStarted(100);
        for (long s = 10; s < 110; s++)
        {
            prefetch.before(s);
            final long steps = (s - 10) / BatchPrefetch.AHEAD;
            final long expected = Math.min(109, 10 + (steps + 1) * BatchPrefetch.AHEAD - 1);
            assertEquals(expected, prefetch.touchedThrough(), "at sequence " + s);
        }

        // The next batch starts where the last ended.
        prefetch.batchStarted(3);
        prefetch.before(110);
        assertEquals(112, prefetch.touchedThrough());
    }

    @Test
    void slotsThatAreNoSingleKeyWriteAreSkipped()
    {
        // An empty key would be refused by the index: a no-op slot left by a failed fill has none.
        ring.get(1).reset(WriteCommand.NOOP, null, null);
        final WriteCommand rangeDelete = ring.get(2);
        rangeDelete.reset(WriteCommand.DELETE, null, null);
        rangeDelete.rangeMode = WriteCommand.UNBOUNDED;
        ring.get(3).reset(WriteCommand.TXN, null, null);

        prefetch.batchStarted(4);
        prefetch.before(0);

        assertEquals(3, prefetch.touchedThrough());
    }

    @Test
    void touchingChangesNoEntry()
    {
        prefetch.batchStarted(RING);
        for (long s = 0; s < RING; s++)
        {
            prefetch.before(s);
        }

        final IndexEntry entry = new IndexEntry();
        for (int i = 0; i < 50; i++)
        {
            final UnsafeBuffer key = new UnsafeBuffer(("key/" + i).getBytes(StandardCharsets.US_ASCII));
            assertTrue(index.get(key, 0, key.capacity(), entry));
            assertEquals(i + 1, entry.modRevision());
            assertEquals(1, entry.version());
        }
        assertEquals(50, index.size());
    }
}
