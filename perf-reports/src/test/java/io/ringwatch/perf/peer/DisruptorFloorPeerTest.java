package io.ringwatch.perf.peer;

import io.ringwatch.perf.load.CancellationTally;
import io.ringwatch.perf.load.LatencyRecorder;
import io.ringwatch.perf.load.PeerWriter;
import io.ringwatch.perf.load.Workload;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DisruptorFloorPeerTest
{
    private final Workload workload = new Workload(10, 16, 8, 2, 1, 0);

    @Test
    void pullWatchersAreRefused()
    {
        try (DisruptorFloorPeer peer = new DisruptorFloorPeer(WriterWait.WAKEABLE, workload))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> peer.watch(workload.watcherPrefix(1), true, new LatencyRecorder(), new CancellationTally()));

            assertTrue(refused.getMessage().contains("no pull watchers"), refused.getMessage());
        }
    }

    @Test
    void watchersAreAddedBeforeTheRingStartsAndWritersMadeAfter()
    {
        try (DisruptorFloorPeer peer = new DisruptorFloorPeer(WriterWait.WAKEABLE, workload))
        {
            assertThrows(IllegalStateException.class, () -> peer.newWriter(workload, new LatencyRecorder()));
            peer.watch(workload.watcherPrefix(0), false, new LatencyRecorder(), new CancellationTally());
            peer.ready();

            assertThrows(IllegalStateException.class,
                () -> peer.watch(workload.watcherPrefix(1), false, new LatencyRecorder(), new CancellationTally()));
        }
    }

    @Test
    void theDescriptionNamesTheRingSizeAndTheWaitStrategy()
    {
        try (DisruptorFloorPeer peer = new DisruptorFloorPeer(WriterWait.BUSY_SPIN, workload))
        {
            assertEquals("disruptor", peer.name());
            assertTrue(peer.description().startsWith("bare Disruptor ring (MULTI, 4096 slots, busy-spin)"), peer.description());
        }
    }

    @Test
    void aProducerAllocatesNothingPerWrite() throws InterruptedException
    {
        final LatencyRecorder acks = new LatencyRecorder();
        final LatencyRecorder deliveries = new LatencyRecorder();
        try (DisruptorFloorPeer peer = new DisruptorFloorPeer(WriterWait.WAKEABLE, workload))
        {
            peer.watch(workload.watcherPrefix(0), false, deliveries, new CancellationTally());
            peer.watch(workload.watcherPrefix(1), false, deliveries, new CancellationTally());
            peer.ready();
            final PeerWriter writer = peer.newWriter(workload, acks);
            for (int i = 0; i < 10_000; i++)
            {
                writer.write(i % workload.keyCount(), System.nanoTime());
            }

            final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++)
            {
                writer.write(i % workload.keyCount(), System.nanoTime());
            }
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            // Far less than one byte a write: the reading itself may cost a few bytes.
            assertTrue(allocated < 1_000, allocated + " bytes for 100,000 writes");
        }
    }
}
