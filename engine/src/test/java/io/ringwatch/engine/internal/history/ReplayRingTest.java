package io.ringwatch.engine.internal.history;

import io.ringwatch.engine.spi.ReplayBatch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The replay ring hands batches over in order around its wrap, ends after the last published
 * batch, rethrows the producer's failure only after the batches published before it, and a
 * cancelled ring gives its producer nothing more to fill (driven from one thread, so no wait).
 */
class ReplayRingTest
{
    private static final UnsafeBuffer KEY = new UnsafeBuffer("key".getBytes(StandardCharsets.US_ASCII));

    @Test
    void batchesComeOutInOrderAroundTheWrapAndThenTheEnd()
    {
        final ReplayRing ring = new ReplayRing(2, 1, 8);
        for (long revision = 1; revision <= 5; revision++)
        {
            produce(ring, revision);
            final ReplayBatch taken = ring.take();
            assertEquals(1, taken.count());
            assertEquals(revision, taken.lastRevision());
            ring.release();
        }
        produce(ring, 6);
        produce(ring, 7);
        ring.finish(null);

        assertEquals(6, ring.take().lastRevision());
        ring.release();
        assertEquals(7, ring.take().lastRevision());
        ring.release();
        assertNull(ring.take());
    }

    @Test
    void theProducersFailureComesAfterTheBatchesPublishedBeforeIt()
    {
        final ReplayRing ring = new ReplayRing(4, 1, 8);
        produce(ring, 1);
        final IllegalStateException failure = new IllegalStateException("corrupt excerpt");
        ring.finish(failure);

        assertEquals(1, ring.take().lastRevision());
        ring.release();
        assertSame(failure, assertThrows(IllegalStateException.class, ring::take));
    }

    @Test
    void aCancelledRingGivesNothingMoreToFillEvenWithRoom()
    {
        final ReplayRing ring = new ReplayRing(4, 1, 8);
        produce(ring, 1);

        ring.cancel();

        assertNull(ring.claim());
    }

    @Test
    void aRingNeedsAPowerOfTwoOfBatches()
    {
        assertThrows(IllegalArgumentException.class, () -> new ReplayRing(3, 1, 8));
        assertThrows(IllegalArgumentException.class, () -> new ReplayRing(0, 1, 8));
    }

    private static void produce(final ReplayRing ring, final long revision)
    {
        final ReplayBatch batch = ring.claim();
        batch.addDelete(revision, KEY, 0, KEY.capacity());
        ring.publish();
    }
}
