package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A probe, not a test (skipped unless {@code -Dprobe.busyWatches=true}): what write admission costs
 * the watch pump while writes flow beside many watches. {@code probe.watches} exact-key watches
 * (100,000 by default) on 4 streams that all read; one writer puts {@code probe.rate} keys a second
 * (1,000 by default), each a random watched key, so every put hands one event to one watch. Over
 * {@code probe.seconds} (5 by default) it measures the CPU of the pump thread and of the process,
 * with write admission on and off in turn, {@code probe.rounds} pairs (3 by default), so each figure
 * has a neighbour from the same run. Run:
 * {@code mvn -pl server test -Dtest=BusyWatchesProbe -Dprobe.busyWatches=true}.
 */
class BusyWatchesProbe
{
    private static final int STREAMS = 4;

    @Test
    void admissionCostWhileWritesFlow() throws Exception
    {
        assumeTrue(Boolean.getBoolean("probe.busyWatches"), "a probe: run with -Dprobe.busyWatches=true");
        final int watches = Integer.getInteger("probe.watches", 100_000);
        final int rate = Integer.getInteger("probe.rate", 1_000);
        final long seconds = Long.getLong("probe.seconds", 5);
        final int rounds = Integer.getInteger("probe.rounds", 3);
        for (int round = 0; round < rounds; round++)
        {
            for (final boolean admission : new boolean[] {true, false})
            {
                System.out.println("round " + round + ": " + measure(watches, admission, rate, seconds));
            }
        }
    }

    private static String measure(final int watches, final boolean admission, final int rate, final long seconds) throws Exception
    {
        final String name = "busy-probe";
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
                    streams.get(i % STREAMS).create(WatchCreateRequest.newBuilder().setKey(key(i)));
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
                assertEquals(watches, created, "every watch created");
                final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
                final Random random = new Random(42);
                final long period = TimeUnit.SECONDS.toNanos(1) / rate;
                // Warm up at the same rate, then measure.
                write(kv, random, watches, period, TimeUnit.SECONDS.toNanos(1));
                final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                final long pumpId = threadId(name + "-watch-pump");
                final com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
                final long pump0 = threads.getThreadCpuTime(pumpId);
                final long process0 = os.getProcessCpuTime();
                final long wall0 = System.nanoTime();
                final int puts = write(kv, random, watches, period, TimeUnit.SECONDS.toNanos(seconds));
                final double wall = (System.nanoTime() - wall0) / 1e9;
                final double pumpCpu = (threads.getThreadCpuTime(pumpId) - pump0) / 1e9;
                final double processCpu = (os.getProcessCpuTime() - process0) / 1e9;
                long events = 0;
                for (final RawWatchStream stream : streams)
                {
                    for (WatchResponse response = stream.responses.poll(); response != null; response = stream.responses.poll())
                    {
                        events += response.getEventsCount();
                    }
                }
                return String.format("watches=%d admission=%s %d puts in %.1fs (%.0f/s), %d events read: pump cpu %.1f%%, process cpu %.1f%%",
                    watches, admission, puts, wall, puts / wall, events, 100 * pumpCpu / wall, 100 * processCpu / wall);
            }
            finally
            {
                streams.forEach(RawWatchStream::close);
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Puts random watched keys, one every {@code period}, for {@code duration}; returns how many. */
    private static int write(final KVGrpc.KVBlockingStub kv, final Random random, final int watches, final long period, final long duration)
    {
        final long start = System.nanoTime();
        int puts = 0;
        for (long next = start; next - start < duration; next += period)
        {
            final long wait = next - System.nanoTime();
            if (wait > 0)
            {
                LockSupport.parkNanos(wait);
            }
            kv.put(PutRequest.newBuilder().setKey(key(random.nextInt(watches))).setValue(ByteString.copyFromUtf8("w")).build());
            puts++;
        }
        return puts;
    }

    private static ByteString key(final int i)
    {
        return ByteString.copyFromUtf8("busy/" + i);
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
