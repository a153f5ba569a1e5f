package io.ringwatch.server.admission;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admission rule on made-up streams, revisions and clock: the marks at half and a quarter of
 * the window, the hysteresis between them, the gate's limit at the slowest reading watch plus the
 * high mark, the gate shut once it had to hold a write, and a stream that stopped reading left
 * out of the measure once the stall time has passed, while one that reads slowly still counts.
 */
class WriteAdmissionTest
{
    private static final long STALL = TimeUnit.SECONDS.toNanos(1);
    private static final long WINDOW = 1_000;

    private long revision;
    private final WriteGate gate = new WriteGate(() -> revision, 16);
    private final WriteAdmission admission = new WriteAdmission(AdmissionMarks.defaults(), STALL, gate);

    @Test
    void writesStopPastHalfTheWindowAndResumeOnlyBelowAQuarter()
    {
        final long now = 10 * STALL;
        final Stream reading = new Stream(now, 0);
        final Stream[] streams = {reading};

        assertTrue(evaluate(streams, now, 500, WINDOW), "a backlog of exactly half the window is admitted");
        assertEquals(500, gate.limit(), "writes may go on up to the slowest watch's position plus the high mark");
        assertFalse(evaluate(streams, now, 501, WINDOW), "past half the window writes stop");
        assertEquals(WriteGate.SHUT, gate.limit());
        assertEquals(501, admission.backlog());

        reading.position = 200;
        assertFalse(evaluate(streams, now, 550, WINDOW), "between the marks the gate stays shut");
        assertFalse(evaluate(streams, now, 550, WINDOW), "and again: no flapping");
        reading.position = 301;
        assertFalse(evaluate(streams, now, 551, WINDOW), "a backlog of exactly a quarter keeps it shut");
        reading.position = 302;
        assertTrue(evaluate(streams, now, 551, WINDOW), "below a quarter writes resume");
        assertEquals(802, gate.limit());

        reading.position = 400;
        assertTrue(evaluate(streams, now, 800, WINDOW), "between the marks an open gate stays open");
    }

    @Test
    void aWriteHeldAtTheLimitShutsTheGateUntilBelowTheLowMark()
    {
        final long now = 10 * STALL;
        final Stream reading = new Stream(now, 0);
        final Stream[] streams = {reading};
        revision = 100;
        assertTrue(evaluate(streams, now, revision, WINDOW));
        assertEquals(500, gate.limit());

        revision = 500;
        final RecordingCall<?, ?> put = WriteGateTest.startPut(gate);
        assertEquals(List.of(), put.requested, "at the limit the gate holds the write by itself");
        assertFalse(evaluate(streams, now, revision, WINDOW),
            "a backlog of exactly the high mark, but a write had to be held: shut");
        assertEquals(WriteGate.SHUT, gate.limit());

        reading.position = 250;
        assertFalse(evaluate(streams, now, revision, WINDOW), "a quarter of the window: still shut");
        assertEquals(List.of(), put.requested);
        reading.position = 251;
        assertTrue(evaluate(streams, now, revision, WINDOW), "below a quarter: open");
        assertEquals(751, gate.limit());
        assertEquals(List.of(2), put.requested, "and the held write goes on");
    }

    @Test
    void writesLetThroughButNotAnsweredCountAsBacklog()
    {
        final long now = 10 * STALL;
        final Stream[] streams = {new Stream(now, 0)};
        revision = 400;
        WriteGateTest.startPut(gate);
        WriteGateTest.startPut(gate);
        assertEquals(2, gate.passing());
        evaluate(streams, now, revision, WINDOW);
        assertEquals(402, admission.backlog(), "two writes passed the gate and may not be applied yet");
    }

    @Test
    void theMarksFollowTheWindow()
    {
        final long now = 10 * STALL;
        final Stream[] streams = {new Stream(now, 1_000)};

        assertTrue(evaluate(streams, now, 1_900, 4 * WINDOW), "a grown window takes a larger backlog");
        assertFalse(evaluate(streams, now, 1_900, WINDOW), "a shrunk one shuts at its own half");
    }

    @Test
    void aStreamThatStoppedReadingIsLeftOutOnceTheStallTimePassed()
    {
        final long start = 10 * STALL;
        final Stream neverReads = new Stream(start, 0);
        final Stream keepsUp = new Stream(start, 990);
        final Stream[] streams = {neverReads, keepsUp};

        assertFalse(evaluate(streams, start + STALL, 1_000, WINDOW),
            "within the stall time the stream still counts: its backlog of 1,000 shuts the gate");
        assertEquals(1_000, admission.backlog());

        keepsUp.lastReady = start + STALL;
        assertTrue(evaluate(streams, start + STALL + 1, 1_000, WINDOW),
            "past the stall time it is left out: only the reading stream's backlog of 10 counts");
        assertEquals(10, admission.backlog());
        assertEquals(1_490, gate.limit());

        neverReads.lastReady = start + 5 * STALL;
        assertFalse(evaluate(streams, start + 5 * STALL, 1_000, WINDOW), "once it reads again it counts again");
    }

    @Test
    void aStreamThatReadsSlowlyKeepsCounting()
    {
        final long start = 10 * STALL;
        final Stream slow = new Stream(start, 0);
        final Stream[] streams = {slow};
        long now = start;
        for (int i = 0; i < 10; i++)
        {
            // Ready once every stall time, just in time: it reads, slowly, and keeps the gate shut.
            now += STALL;
            assertFalse(evaluate(streams, now, 600, WINDOW), "round " + i);
            slow.lastReady = now;
        }
    }

    @Test
    void noReadingWatchMeansNoBacklog()
    {
        final long now = 10 * STALL;
        assertTrue(evaluate(new Stream[0], now, 1_000_000, WINDOW));
        assertTrue(evaluate(new Stream[] {new Stream(now, Long.MAX_VALUE)}, now, 1_000_000, WINDOW),
            "a stream without watches owes nothing");
        assertEquals(0, admission.backlog());
    }

    @Test
    void watchesNotBehindCountAsInStep()
    {
        final long now = 10 * STALL;
        revision = 1_000;
        assertTrue(admission.evaluate(List.of(), revision, now, revision, WINDOW));
        assertEquals(1_500, gate.limit(), "no stream behind: the in-step watches bound the writes between measurements");
        assertEquals(0, admission.backlog());
        final Stream behind = new Stream(now, 700);
        assertTrue(admission.evaluate(List.of(behind), revision, now, revision, WINDOW));
        assertEquals(300, admission.backlog(), "a stream behind is measured beside the in-step watches");
        assertEquals(1_200, gate.limit());
        assertTrue(admission.evaluate(List.of(new Stream(now - 2 * STALL, 0)), revision, now, revision, WINDOW),
            "a stream behind that stopped reading is left out");
        assertEquals(1_500, gate.limit(), "while the in-step watches still bound the writes");
    }

    @Test
    void theWindowHoldsItsCapacityUntilFullThenTheRevisionsItSpans()
    {
        assertEquals(1_024, WriteAdmission.windowRevisions(100, 1, 100, 1_024), "not full: its capacity");
        assertEquals(1_024, WriteAdmission.windowRevisions(2_000, 977, 1_024, 1_024), "full, one event per revision");
        assertEquals(256, WriteAdmission.windowRevisions(2_000, 1_745, 1_024, 1_024), "full, four events per revision");
    }

    @Test
    void badMarksAndStallTimesAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new AdmissionMarks(0.5, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new AdmissionMarks(1.5, 0.25));
        assertThrows(IllegalArgumentException.class, () -> new AdmissionMarks(0.5, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new WriteAdmission(AdmissionMarks.defaults(), -1, gate));
        assertThrows(IllegalArgumentException.class, () -> new WriteGate(() -> 0, 0));
    }

    /** Measures {@code streams} as the streams behind, with no watch in step beside them. */
    private boolean evaluate(final Stream[] streams, final long now, final long currentRevision, final long window)
    {
        return admission.evaluate(List.of(streams), Long.MAX_VALUE, now, currentRevision, window);
    }

    /** A stream as admission sees it. */
    private static final class Stream implements WatchBacklog
    {
        long lastReady;
        long position;

        Stream(final long lastReady, final long position)
        {
            this.lastReady = lastReady;
            this.position = position;
        }

        @Override
        public long lastReadyNanos()
        {
            return lastReady;
        }

        @Override
        public long position()
        {
            return position;
        }
    }
}
