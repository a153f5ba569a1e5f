package io.ringwatch.server;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.WatchOption;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.ringwatch.server.ServerFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A jetcd watch whose stream breaks because the server restarts on its data directory resumes
 * where it stopped (jetcd re-creates it at its last revision + 1 on UNAVAILABLE): every event once,
 * none missing, whether written before the stop or after the restart; compacted past that revision
 * while it was away, it gets etcd's compacted response, which jetcd hands its listener as
 * {@link CompactedException} with the compaction revision. (jetcd hands its listener the stop
 * too, UNAVAILABLE "etcdserver: server stopped", and retries: the code etcd ends its streams with.)
 */
class WatchResumptionTest
{
    private static final int PER_LIFE = 50;

    @TempDir
    Path dir;

    private final List<Long> revisions = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private RingWatchConfig config;
    private ServerOptions.Builder options;
    private Client client;

    @BeforeEach
    void serverOnAFreePortAndItsClient() throws IOException
    {
        final int port;
        try (ServerSocket free = new ServerSocket(0))
        {
            port = free.getLocalPort();
        }
        config = RingWatchConfig.builder().name("resumption-test").persistence(LogConfig.builder(dir).build()).build();
        options = ServerOptions.builder().name("resumption").listenClientUrl(URI.create("http://127.0.0.1:" + port));
        client = Client.builder().endpoints("http://127.0.0.1:" + port).build();
    }

    @AfterEach
    void closeTheClient()
    {
        client.close();
    }

    @Test
    void aJetcdWatchResumesAcrossARestartWithNoGapAndNoDuplicate() throws Exception
    {
        final List<Long> written = new ArrayList<>();
        try (ServerFixture first = new ServerFixture(config).start(options))
        {
            watchFromTheStart(client, "rz/");
            for (int i = 0; i < PER_LIFE; i++)
            {
                written.add(first.engine.put("rz/" + i, "v").revision());
            }
            await(revisions, PER_LIFE);
        }
        try (ServerFixture second = new ServerFixture(config).start(options))
        {
            for (int i = 0; i < PER_LIFE; i++)
            {
                written.add(second.engine.put("rz/" + (PER_LIFE + i), "v").revision());
            }
            await(revisions, 2 * PER_LIFE);
            Thread.sleep(200);
        }
        assertEquals(written, revisions, () -> "every event once, in order; listener errors: " + errors);
    }

    @Test
    void aJetcdWatchResumingBehindACompactionMadeWhileItWasAwayGetsTheCompactedError() throws Exception
    {
        try (ServerFixture first = new ServerFixture(config).start(options))
        {
            watchFromTheStart(client, "rc/");
            for (int i = 0; i < PER_LIFE; i++)
            {
                first.engine.put("rc/" + i, "v");
            }
            await(revisions, PER_LIFE);
        }
        final long compacted;
        // While the server is down: more writes, then a compaction past the watch's next revision.
        try (RingWatch engine = RingWatch.open(config))
        {
            for (int i = 0; i < 10; i++)
            {
                engine.put("rc/away" + i, "v");
            }
            compacted = engine.currentRevision();
            engine.compact(compacted);
        }
        try (ServerFixture second = new ServerFixture(config).start(options))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (compacted(errors) == null && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
        }
        assertEquals(PER_LIFE, revisions.size(), "nothing delivered past the compaction");
        final CompactedException error = compacted(errors);
        assertTrue(error != null, () -> "jetcd's compacted error: " + errors);
        assertEquals(compacted, error.getCompactedRevision());
    }

    /** Watches the prefix from revision 1, recording each event's revision and each error. */
    private void watchFromTheStart(final Client client, final String prefix)
    {
        client.getWatchClient().watch(bytes(prefix), WatchOption.builder().isPrefix(true).withRevision(1).build(),
            Watch.listener(response -> response.getEvents().forEach(e -> revisions.add(e.getKeyValue().getModRevision())),
                errors::add));
    }

    /** jetcd also hands its listener the stop (UNAVAILABLE, "etcdserver: server stopped") before it retries. */
    private static CompactedException compacted(final List<Throwable> errors)
    {
        return errors.stream().filter(CompactedException.class::isInstance).map(CompactedException.class::cast).findFirst().orElse(null);
    }

    private static void await(final List<Long> revisions, final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (revisions.size() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
    }
}
