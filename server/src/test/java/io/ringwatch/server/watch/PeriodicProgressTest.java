package io.ringwatch.server.watch;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's rule for a watch's own periodic progress (v3rpc watch.go sendLoop and mvcc
 * progressIfSync, etcd 3.5.22): elided at the tick after an event was sent, withheld below the
 * start revision.
 */
class PeriodicProgressTest
{
    @Test
    void aQuietWatchGetsProgressAtEveryTick()
    {
        final PeriodicProgress progress = new PeriodicProgress(0);
        assertTrue(progress.tick(5));
        assertTrue(progress.tick(5));
        assertTrue(progress.tick(6));
    }

    @Test
    void theTickAfterAnEventIsElidedAndTheOneAfterThatIsNot()
    {
        final PeriodicProgress progress = new PeriodicProgress(0);
        progress.eventsSent();
        assertFalse(progress.tick(7), "an event since the last tick: no progress");
        assertTrue(progress.tick(7), "no event since the last tick");
        progress.eventsSent();
        progress.eventsSent();
        assertFalse(progress.tick(9));
        assertTrue(progress.tick(9));
    }

    @Test
    void noProgressBelowTheStartRevision()
    {
        final PeriodicProgress progress = new PeriodicProgress(10);
        assertTrue(progress.aheadOf(9));
        assertFalse(progress.tick(9));
        assertFalse(progress.aheadOf(10));
        assertTrue(progress.tick(10));
        assertTrue(progress.tick(11));
    }

    @Test
    void aWithheldTickStillEndsTheEventsInterval()
    {
        final PeriodicProgress progress = new PeriodicProgress(10);
        progress.eventsSent();
        assertFalse(progress.tick(9));
        assertTrue(progress.tick(10), "etcd re-arms at every tick, whether it sent or not");
    }
}
