package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A probe, not a test (skipped unless {@code -Dprobe.idleWatches=true}): what idle watches cost the
 * server. For each watch count (0, 10,000, 100,000 exact-key watches over 4 streams, none of whose
 * keys is written) and write admission on and off, it measures over {@code probe.seconds} (5 by
 * default) the CPU of the server's watch pump thread and of the whole process with no writes, then
 * the latency of 2,000 sequential puts of another key beside them. Configurations run in turn, the
 * list {@code probe.rounds} times (2 by default), so each figure has a neighbour from the same run.
 * Run: {@code mvn -pl server test -Dtest=IdleWatchesProbe -Dprobe.idleWatches=true}.
 */
class IdleWatchesProbe
{
    private static final int STREAMS = 4;
    private static final int PUTS = 2_000;

    @Test
    void idleWatchesCost() throws Exception
    {
        assumeTrue(Boolean.getBoolean("probe.idleWatches"), "a probe: run with -Dprobe.idleWatches=true");
        final long seconds = Long.getLong("probe.seconds", 5);
        final int rounds = Integer.getInteger("probe.rounds", 2);
        final int[] counts = Arrays.stream(System.getProperty("probe.counts", "0,10000,100000").split(",")).mapToInt(Integer::parseInt).toArray();
        for (int round = 0; round < rounds; round++)
        {
            for (final boolean admission : new boolean[] {true, false})
            {
                for (final int count : counts)
                {
                    System.out.println(measure(count, admission, seconds));
                }
            }
        }
    }

    private static String measure(final int watches, final boolean admission, final long seconds) throws Exception
    {
        final String name = "idle-probe";
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().name(name).build());
             RingWatchServer server = RingWatchServer.start(engine, ServerOptions.builder().name(name)
                 .listenClientUrl(URI.create("http://127.0.0.1:0")).writeAdmission(admission)
                 // One pump, the thread the probe measures, as in the figures it is compared with.
                 .watchPumps(1).build()))
        {
            final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
            final List<RawWatchStream> streams = new ArrayList<>();
            try
            {
                for (int s = 0; s < STREAMS; s++)
                {
                    streams.add(new RawWatchStream(channel, true));
                }
                for (int i = 0; i < watches; i++)
                {
                    streams.get(i % STREAMS).create(WatchCreateRequest.newBuilder().setKey(ByteString.copyFromUtf8("idle/" + i)));
                }
                int created = 0;
                for (final RawWatchStream stream : streams)
                {
                    for (int i = 0; i < watches / STREAMS; i++)
                    {
                        final WatchResponse response = stream.next();
                        created += response.getCreated() ? 1 : 0;
                    }
                }
                assertTrue(created == watches, "every watch created");
                final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
                for (int i = 0; i < 200; i++)
                {
                    kv.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("busy")).setValue(ByteString.copyFromUtf8("w")).build());
                }
                Thread.sleep(500);
                final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                final long pumpId = threadId(name + "-watch-pump");
                final com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
                final long pump0 = threads.getThreadCpuTime(pumpId);
                final long process0 = os.getProcessCpuTime();
                final long wall0 = System.nanoTime();
                Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
                final double wall = (System.nanoTime() - wall0) / 1e9;
                final double pumpCpu = (threads.getThreadCpuTime(pumpId) - pump0) / 1e9;
                final double processCpu = (os.getProcessCpuTime() - process0) / 1e9;
                final long[] latencies = new long[PUTS];
                for (int i = 0; i < PUTS; i++)
                {
                    final long start = System.nanoTime();
                    kv.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("busy")).setValue(ByteString.copyFromUtf8("w")).build());
                    latencies[i] = System.nanoTime() - start;
                }
                Arrays.sort(latencies);
                return String.format("watches=%d admission=%s idle %.1fs: pump cpu %.1f%%, process cpu %.1f%%; %d puts: p50 %.0f us, p99 %.0f us",
                    watches, admission, wall, 100 * pumpCpu / wall, 100 * processCpu / wall, PUTS,
                    latencies[PUTS / 2] / 1e3, latencies[PUTS * 99 / 100] / 1e3);
            }
            finally
            {
                streams.forEach(RawWatchStream::close);
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    private static long threadId(final String name)
    {
        for (final ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false))
        {
            if (info.getThreadName().equals(name))
            {
                return info.getThreadId();
            }
        }
        throw new IllegalStateException("no thread " + name);
    }
}
