package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's SIGTERM promise with a real process (issue 14): {@link ServerMain} runs in a child
 * JVM over a data directory, 1,000 watches on four raw gRPC streams (two connections) watch the
 * keys that four jetcd writers put flat out, each writer keeping puts in flight and recording
 * those acknowledged; at a random moment the child gets SIGTERM ({@link Process#destroy()}). Then:
 * the child exits within 30 s (a safety net, not a speed check) with 143, the JVM's status for
 * SIGTERM once its shutdown hooks have run (ServerMain's main thread returns normally when the hook
 * stops the server, and never calls {@code System.exit} for it); every watch stream ends with
 * UNAVAILABLE ("etcdserver: server stopped", sent by the server, not a cut connection), which
 * jetcd and etcd's clients treat as retryable; reopening the directory with the
 * server's own settings finds every acknowledged put with its value and revision, and every
 * revision a watcher was shown, and no revision bump (which an ASYNC log not closed cleanly would
 * make); and the log verifies. Both durabilities make the same promise
 * here, because SIGTERM closes the engine cleanly: SYNC acknowledges after the flush and ASYNC
 * after the append to the mapped log file, which the process's exit does not lose; ASYNC's weaker
 * promise is only about an OS crash or power loss. Rounds alternate the default (SYNC), ASYNC and
 * an explicit SYNC; {@code -Dringwatch.long=true} runs more, {@code -Dringwatch.seed} repeats one.
 */
class SigtermTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 12 : 3;
    private static final int STREAMS = 4;
    private static final int WATCHES_PER_STREAM = 250;
    private static final int WRITERS = 4;
    private static final int IN_FLIGHT_PER_WRITER = 16;
    private static final long EXIT_BOUND_SECONDS = 30;
    /** What the server tells a watch stream it ends because it stops (a dropped connection says otherwise). */
    private static final String SERVER_STOPPED = "etcdserver: server stopped";

    @Test
    void sigtermLosesNoAcknowledgedPutAndEndsWatchStreamsAsUnavailable(@TempDir final Path dir) throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        for (int round = 0; round < ROUNDS; round++)
        {
            final LogConfig.Durability durability = round % 2 == 1 ? LogConfig.Durability.ASYNC : LogConfig.Durability.SYNC;
            final boolean explicit = round % 3 != 0;
            runRound(dir.resolve("round-" + round), durability, explicit, random, "seed " + seed + " round " + round +
                " (" + (explicit ? "--durability " + durability : "default durability") + ")");
        }
    }

    private static void runRound(
        final Path dir, final LogConfig.Durability durability, final boolean explicit, final Random random, final String what)
        throws Exception
    {
        final Path dataDir = dir.resolve("data");
        Files.createDirectories(dir);
        final Path log = dir.resolve("server.log");
        final int port = ServerProcess.freePort();
        final List<String> arguments = new ArrayList<>(List.of("--name", "sigterm",
            "--listen-client-urls", "http://127.0.0.1:" + port, "--data-dir", dataDir.toString()));
        if (explicit)
        {
            arguments.addAll(List.of("--durability", durability.name()));
        }
        final Process server = ServerProcess.start(arguments, log);
        final Writes writes = new Writes();
        final List<WatchStream> streams = new ArrayList<>();
        final List<ManagedChannel> channels = new ArrayList<>();
        long exitMillis;
        try
        {
            ServerProcess.awaitListening(server, log);
            for (int c = 0; c < 2; c++)
            {
                channels.add(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
            }
            for (int s = 0; s < STREAMS; s++)
            {
                streams.add(new WatchStream(channels.get(s % channels.size()), s));
            }
            for (final WatchStream stream : streams)
            {
                assertTrue(stream.created.await(30, TimeUnit.SECONDS), what + ": watches not created; see " + log);
            }
            try (Client client = Client.builder().endpoints("http://127.0.0.1:" + port)
                .waitForReady(false).retryMaxAttempts(1).retryMaxDuration(Duration.ofSeconds(2)).build())
            {
                final List<Thread> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++)
                {
                    final int writer = w;
                    final Thread thread = new Thread(() -> writes.run(client, writer), "sigterm-writer-" + w);
                    thread.start();
                    writers.add(thread);
                }
                while (writes.acknowledged.size() < 200 && server.isAlive())
                {
                    Thread.sleep(5);
                }
                Thread.sleep(random.nextInt(1_000));
                final long puts = writes.acknowledged.size();
                final long signalled = System.nanoTime();
                server.destroy();
                final boolean exited = server.waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
                exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
                assertTrue(exited, what + ": no exit within " + EXIT_BOUND_SECONDS + " s of SIGTERM; see " + log);
                assertEquals(ServerProcess.SIGTERM_EXIT_STATUS, server.exitValue(), what + ": exit status; see " + log);
                writes.stop.set(true);
                for (final Thread writer : writers)
                {
                    writer.join(TimeUnit.SECONDS.toMillis(EXIT_BOUND_SECONDS));
                    assertTrue(!writer.isAlive(), what + ": a writer's puts never completed");
                }
                System.out.printf("%s: exited %d ms after SIGTERM; %d puts acknowledged before it, %d in all, %d failed%n",
                    what, exitMillis, puts, writes.acknowledged.size(), writes.failed.get());
            }
            for (final WatchStream stream : streams)
            {
                final Status status = stream.ended.get(EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
                assertEquals(Status.Code.UNAVAILABLE, status.getCode(), what + ": stream " + stream.index + " ended with " + status);
                assertEquals(SERVER_STOPPED, status.getDescription(),
                    what + ": stream " + stream.index + " was cut, not ended by the server: " + status);
            }
        }
        finally
        {
            server.destroyForcibly();
            for (final ManagedChannel channel : channels)
            {
                channel.shutdownNow();
            }
        }
        assertTrue(writes.acknowledged.size() >= 200, what + ": only " + writes.acknowledged.size() + " puts acknowledged");
        checkReopened(dataDir, durability, writes, streams, what);
    }

    private static void checkReopened(
        final Path dataDir, final LogConfig.Durability durability, final Writes writes, final List<WatchStream> streams,
        final String what)
    {
        final RingWatch engine = RingWatch.open(EtcdLimits.applyTo(RingWatchConfig.builder().name("sigterm-check"),
            EtcdLimits.MAX_REQUEST_BYTES).persistence(LogConfig.builder(dataDir).durability(durability).build()).build());
        try
        {
            int found = 0;
            for (final Put put : writes.acknowledged)
            {
                final List<KeyValue> kvs = engine.range(KeyRange.key(put.key), 0).kvs();
                assertEquals(1, kvs.size(), what + ": acknowledged put of " + put.key + " at " + put.revision + " lost");
                assertEquals(put.value, kvs.get(0).valueAsString(), what + ": value of " + put.key);
                assertEquals(put.revision, kvs.get(0).modRevision(), what + ": revision of " + put.key);
                found++;
            }
            long seen = 0;
            for (final WatchStream stream : streams)
            {
                seen = Math.max(seen, stream.newestRevision.get());
            }
            assertTrue(engine.currentRevision() >= seen,
                what + ": a watcher saw revision " + seen + " but the log holds up to " + engine.currentRevision());
            long newestAcknowledged = 0;
            for (final Put put : writes.acknowledged)
            {
                newestAcknowledged = Math.max(newestAcknowledged, put.revision);
            }
            // A clean close leaves no revision bump (an unclean ASYNC reopen jumps by crashRevisionBump):
            // past the newest acknowledged put there can only be puts whose answers were lost.
            assertTrue(engine.currentRevision() <= newestAcknowledged + writes.failed.get(),
                what + ": recovered revision " + engine.currentRevision() + " beyond the newest acknowledged, " +
                    newestAcknowledged + ", and the " + writes.failed.get() + " puts without an answer: not closed cleanly");
            System.out.printf("%s: %d acknowledged puts found of %d; newest watched revision %d, recovered %d%n",
                what, found, writes.acknowledged.size(), seen, engine.currentRevision());
        }
        finally
        {
            engine.close();
        }
        try (RevisionLog log = RevisionLog.openReadOnly(dataDir))
        {
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), what + ": the log does not verify: " + report);
        }
    }

    /** One key's acknowledged put. */
    private record Put(String key, String value, long revision)
    {
    }

    /**
     * Writers that put unique keys flat out, each with {@link #IN_FLIGHT_PER_WRITER} puts in flight,
     * until a put fails (the server went away) or the test stops them; the acknowledged ones are kept.
     */
    private static final class Writes
    {
        final ConcurrentLinkedQueue<Put> acknowledged = new ConcurrentLinkedQueue<>();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();

        void run(final Client client, final int writer)
        {
            final Semaphore inFlight = new Semaphore(IN_FLIGHT_PER_WRITER);
            final AtomicBoolean failedHere = new AtomicBoolean();
            try
            {
                for (long n = 0; !stop.get() && !failedHere.get(); n++)
                {
                    if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS))
                    {
                        n--;
                        continue;
                    }
                    final String key = "p" + (n * WRITERS + writer) % WATCHES_PER_STREAM + "/w" + writer + "-" + n;
                    final String value = "v" + writer + "-" + n;
                    client.getKVClient().put(bytes(key), bytes(value)).whenComplete((response, error) ->
                    {
                        if (error == null)
                        {
                            acknowledged.add(new Put(key, value, response.getHeader().getRevision()));
                        }
                        else
                        {
                            failed.incrementAndGet();
                            failedHere.set(true);
                        }
                        inFlight.release();
                    });
                }
                inFlight.tryAcquire(IN_FLIGHT_PER_WRITER, EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }

        private static ByteSequence bytes(final String text)
        {
            return ByteSequence.from(text, StandardCharsets.UTF_8);
        }
    }

    /**
     * A raw watch stream with {@link #WATCHES_PER_STREAM} prefix watches, {@code p0/} to
     * {@code p249/}: every put matches one watch of each stream. Keeps the newest revision it was
     * shown and the status the stream ended with.
     */
    private static final class WatchStream implements StreamObserver<WatchResponse>
    {
        final int index;
        final CountDownLatch created = new CountDownLatch(WATCHES_PER_STREAM);
        final CompletableFuture<Status> ended = new CompletableFuture<>();
        final AtomicLong newestRevision = new AtomicLong();

        WatchStream(final ManagedChannel channel, final int index)
        {
            this.index = index;
            final StreamObserver<WatchRequest> requests = WatchGrpc.newStub(channel).watch(this);
            for (int w = 0; w < WATCHES_PER_STREAM; w++)
            {
                final String prefix = "p" + w + "/";
                requests.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8(prefix)).setRangeEnd(ByteString.copyFromUtf8("p" + w + "0"))).build());
            }
        }

        @Override
        public void onNext(final WatchResponse response)
        {
            if (response.getCreated())
            {
                created.countDown();
            }
            for (int e = 0; e < response.getEventsCount(); e++)
            {
                newestRevision.accumulateAndGet(response.getEvents(e).getKv().getModRevision(), Math::max);
            }
        }

        @Override
        public void onError(final Throwable error)
        {
            ended.complete(Status.fromThrowable(error));
        }

        @Override
        public void onCompleted()
        {
            ended.complete(Status.OK.withDescription("completed without a status"));
        }
    }
}
