package io.ringwatch.jmh.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AckWindowTest
{
    /** A watcher that has received every revision up to {@code behind}, then, once asked {@code lowAnswers} times, all. */
    private static final class SlowWatcher implements WatchProgress
    {
        private final long behind;
        private int lowAnswers;
        private int asked;

        SlowWatcher(final long behind, final int lowAnswers)
        {
            this.behind = behind;
            this.lowAnswers = lowAnswers;
        }

        @Override
        public long receivedThrough()
        {
            asked++;
            return lowAnswers-- > 0 ? behind : Long.MAX_VALUE;
        }
    }

    @Test
    void aSlidingWindowAsksNothingUntilItIsFullThenWaitsForTheOldestPutsRevision()
    {
        final SlowWatcher watcher = new SlowWatcher(10, 3);
        final AckWindow window = new AckWindow(watcher, Pacing.SLIDING, 2);

        window.sent();
        window.sent();
        assertEquals(0, watcher.asked, "two puts fit a window of two");

        window.onWritten(11, true, 0);
        window.onWritten(12, true, 0);
        window.sent();

        // Put 1 (revision 11) must be received: three answers of 10 keep the producer waiting, the fourth frees it.
        assertEquals(4, watcher.asked);
    }

    @Test
    void aSlidingWindowGoesOnAtOnceWhenTheOldestPutWasReceived()
    {
        final SlowWatcher watcher = new SlowWatcher(11, 5);
        final AckWindow window = new AckWindow(watcher, Pacing.SLIDING, 2);
        window.sent();
        window.sent();
        window.onWritten(11, true, 0);
        window.onWritten(12, true, 0);

        window.sent();

        assertEquals(1, watcher.asked, "revision 11 was already received");
    }

    @Test
    void aDrainingWindowWaitsAtItsBoundaryForTheLastPutsRevision()
    {
        final SlowWatcher watcher = new SlowWatcher(11, 2);
        final AckWindow window = new AckWindow(watcher, Pacing.DRAIN, 2);
        window.sent();
        assertEquals(0, watcher.asked);
        window.onWritten(11, true, 0);
        window.onWritten(12, true, 0);

        window.sent();

        // The boundary waits for revision 12, the last put: two answers of 11, then the third.
        assertEquals(3, watcher.asked);
        assertEquals(2, window.acknowledged());
    }

    @Test
    void aWindowThatIsNotAPositivePowerOfTwoIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> new AckWindow(() -> 0, Pacing.SLIDING, 3));
        assertThrows(IllegalArgumentException.class, () -> new AckWindow(() -> 0, Pacing.SLIDING, 0));
        assertThrows(IllegalArgumentException.class, () -> new AckWindow(() -> 0, Pacing.DRAIN, -4));
    }
}
