package io.ringwatch.engine;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.ringwatch.engine.internal.write.RevisionCursor;
import org.junit.jupiter.api.Test;

/** The parts the facade delegates to: the read gate, compaction and the wait for a revision. */
class FacadePartsTest
{
    @Test
    void aClosedGateRefusesCallsAndCloseWaitsForTheCallsInside() throws InterruptedException
    {
        final ReadGate gate = new ReadGate();
        gate.enter();
        assertTrue(gate.close());
        assertFalse(gate.close(), "closed once");
        assertThrows(EngineClosedException.class, gate::enter);
        assertThrows(EngineClosedException.class, gate::requireOpen);

        final CountDownLatch drained = new CountDownLatch(1);
        final Thread closer = new Thread(() ->
        {
            gate.awaitNoneInside();
            drained.countDown();
        });
        closer.start();
        assertFalse(drained.await(50, TimeUnit.MILLISECONDS), "one call is still inside");
        gate.leave();
        assertTrue(drained.await(30, TimeUnit.SECONDS), "the refused enter was not counted");
        closer.join();
    }

    @Test
    void compactionRefusesBadPointsAndChangesNothing()
    {
        final ReadGate gate = new ReadGate();
        final Compaction compaction = new Compaction(gate, new RevisionCursor(10), null, () -> false);
        assertThrows(InvalidRequestException.class, () -> compaction.compact(-1));
        assertThrows(FutureRevisionException.class, () -> compaction.compact(11));
        assertEquals(0, compaction.revision());
        assertEquals(-1, compaction.mark(), "etcd's mark of a store never compacted");
        compaction.compact(0);
        assertEquals(0, compaction.revision());
        assertEquals(0, compaction.mark());
        assertThrows(CompactedException.class, () -> compaction.compact(0));

        compaction.compact(5);
        assertEquals(5, compaction.revision());
        assertThrows(CompactedException.class, () -> compaction.compact(5));
        assertThrows(CompactedException.class, () -> compaction.requireNotBefore(4));
        compaction.requireNotBefore(5);

        gate.close();
        assertThrows(EngineClosedException.class, () -> compaction.compact(7));
        assertEquals(5, compaction.revision());
    }

    @Test
    void aRevisionWaitReturnsAtOnceForAnAppliedRevisionAndTimesOutOtherwise()
    {
        final RevisionWait wait = new RevisionWait(new RevisionCursor(3));
        assertTrue(wait.await(3, Duration.ZERO));
        assertFalse(wait.await(4, Duration.ofMillis(5)));
        assertThrows(InvalidRequestException.class, () -> wait.await(-1, Duration.ZERO));
        assertThrows(InvalidRequestException.class, () -> wait.await(1, Duration.ofMillis(-1)));
        assertThrows(InvalidRequestException.class, () -> wait.await(1, null));
    }

    @Test
    void theFacadeCompactsWaitsAndClosesThroughItsParts()
    {
        final RingWatch engine = RingWatch.open();
        engine.put("a", "1");
        engine.put("a", "2");
        assertTrue(engine.waitForRevision(2, Duration.ZERO));
        engine.compact(2);
        assertEquals(2, engine.compactRevision());
        assertThrows(CompactedException.class, () -> engine.range(io.ringwatch.engine.kv.KeyRange.all(), 0, 1));
        engine.close();
        engine.close();
        assertThrows(EngineClosedException.class, () -> engine.get("a"));
        assertThrows(EngineClosedException.class, () -> engine.compact(2));
        assertThrows(EngineClosedException.class, () -> engine.waitForRevision(1, Duration.ZERO));
    }
}
