package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.LoadRun;
import io.ringwatch.perf.load.LoadSettings;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.ProducerWait;
import io.ringwatch.perf.load.Workload;
import io.ringwatch.perf.report.PeerResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Short real runs: every write reaches exactly its watchers, and the histograms hold exactly the
 * measured phase. Counts only; no assertion depends on how fast anything was.
 */
class PeerRunTest
{
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    // The drain timeout only bounds a hang; a healthy run drains long before it.
    private static final LoadSettings SETTINGS =
        new LoadSettings(2_000, Duration.ofMillis(200), Duration.ofMillis(500), 2, ProducerWait.YIELD, Duration.ofSeconds(20));

    @Test
    void ringWatchPushAndPullWatchersReceiveEveryWrite() throws InterruptedException
    {
        final Workload workload = new Workload(50, 16, 16, 12, 3, 3);
        final EngineSettings settings = new EngineSettings(WriterWait.WAKEABLE, ThreadIdle.WAKEABLE, ThreadIdle.WAKEABLE,
            1, 2, 2, WriteMode.ASYNC, Persistence.NONE, null);

        assertDeliveredExactly(new RingWatchPeer(settings, workload), workload);
    }

    @Test
    void ringWatchWatchersReceiveEveryWriteBesideAListenerBlockedForEver() throws InterruptedException
    {
        final Workload workload = new Workload(50, 16, 16, 12, 3, 0);
        final EngineSettings settings = new EngineSettings(WriterWait.WAKEABLE, ThreadIdle.WAKEABLE, ThreadIdle.WAKEABLE,
            1, 1, 1, WriteMode.ASYNC, Persistence.NONE, null);

        assertDeliveredExactly(new RingWatchPeer(settings, workload, 1), workload);
    }

    @Test
    void ringWatchBlockingPutsAreAcknowledgedToo() throws InterruptedException
    {
        final Workload workload = new Workload(20, 16, 8, 4, 2, 0);
        final EngineSettings settings = new EngineSettings(WriterWait.SLEEPING, ThreadIdle.SLEEPING, ThreadIdle.SLEEPING,
            1, 1, 1, WriteMode.SYNC, Persistence.NONE, null);

        assertDeliveredExactly(new RingWatchPeer(settings, workload), workload);
    }

    @Test
    void theLockedBaselineDeliversEveryWriteToItsWatchers() throws InterruptedException
    {
        final Workload workload = new Workload(50, 16, 16, 12, 3, 0);

        assertDeliveredExactly(new LockedBroadcastPeer(), workload);
    }

    @ParameterizedTest
    @EnumSource(WriterWait.class)
    void theDisruptorFloorAcknowledgesEveryWriteAndDeliversItToEachOfItsWatchers(final WriterWait wait)
        throws InterruptedException
    {
        final Workload workload = new Workload(50, 16, 16, 12, 3, 0);

        assertDeliveredExactly(new DisruptorFloorPeer(wait, workload), workload);
    }

    @Test
    void aSaturatedRunSendsForTheWholeRunAndCountsWhatThePeerTook() throws InterruptedException
    {
        final Workload workload = new Workload(50, 16, 16, 12, 3, 0);
        final LoadSettings saturated = new LoadSettings(1, Duration.ofMillis(100), Duration.ofMillis(300), 2,
            ProducerWait.YIELD, Duration.ofSeconds(20), true);
        final PeerResult result;
        try (Peer peer = new LockedBroadcastPeer())
        {
            result = new LoadRun(peer, saturated, workload, QUIET).execute();
        }

        assertTrue(result.drained(), result.notes().toString());
        assertEquals(0, result.targetRate());
        // A rate of 1/s would have sent one write; the closed loop ignores it.
        assertTrue(result.writes() > 10, "writes: " + result.writes());
        assertTrue(result.measuredWrites() > 0 && result.measuredWrites() < result.writes(),
            result.measuredWrites() + " of " + result.writes());
        assertEquals(result.writes() * workload.watchersPerWrite(), result.deliveries());
        assertEquals(result.measuredWrites(), result.ackLatency().getTotalCount());
        assertEquals(result.measuredWrites() * workload.watchersPerWrite(), result.deliveryLatency().getTotalCount());
        assertTrue(result.notes().isEmpty(), result.notes().toString());
    }

    @Test
    void aRingWatchServerPeerWithoutItsStartScriptIsRefusedBeforeAnythingStarts()
    {
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> new RingWatchServerPeer(Path.of("no", "such", "ringwatch-server"), Persistence.NONE, null,
                new EtcdClientSettings(EtcdClientKind.JETCD, 1, 256)));

        assertTrue(refused.getMessage().contains("no ringwatch-server start script"), refused.getMessage());
    }

    private static void assertDeliveredExactly(final Peer peer, final Workload workload) throws InterruptedException
    {
        final PeerResult result;
        try (peer)
        {
            result = new LoadRun(peer, SETTINGS, workload, QUIET).execute();
        }

        assertTrue(result.drained(), result.notes().toString());
        assertEquals(1_400, result.writes());
        assertEquals(1_000, result.measuredWrites());
        assertEquals(result.writes() * workload.watchersPerWrite(), result.deliveries());
        assertEquals(result.measuredWrites() * workload.watchersPerWrite(), result.deliveryLatency().getTotalCount());
        assertEquals(result.measuredWrites(), result.ackLatency().getTotalCount());
        assertEquals(result.measuredWrites(), result.sendLag().getTotalCount());
        assertEquals(0, result.failedWrites());
        assertTrue(result.cancellations().isEmpty(), result.cancellations().toString());
    }
}
