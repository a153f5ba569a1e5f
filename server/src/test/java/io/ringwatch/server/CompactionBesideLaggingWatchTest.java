package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's watch failures around compaction (events lost or sent twice when a watcher that fell
 * behind meets a compaction): a watch whose client stops reading falls behind, the store is
 * compacted past where it is (logically, and physically), then the client reads again. It must
 * get every event from its start with no gap and none twice, ending, if history it still needs is
 * gone, with etcd's compacted cancel naming the compaction; a watch created again from that compact
 * revision, as an etcd client resumes, is served from it with no gap. In memory and over a revision
 * log (where the lagging watch catches up from the log). Asserts on delivery only.
 */
class CompactionBesideLaggingWatchTest
{
    private static final int WRITES = 2_000;
    private static final int VALUE_BYTES = 2_048;

    @TempDir
    Path dir;

    @Test
    void aLaggingWatchInMemoryGetsNoGapNoDuplicateAcrossACompaction() throws Exception
    {
        run(RingWatchConfig.builder().name("compaction-lag-memory").build(), false);
    }

    @Test
    void aLaggingWatchOverTheLogGetsNoGapNoDuplicateAcrossAPhysicalCompaction() throws Exception
    {
        run(RingWatchConfig.builder().name("compaction-lag-log").persistence(LogConfig.builder(dir).build()).build(), true);
    }

    private static void run(final RingWatchConfig config, final boolean physical) throws Exception
    {
        try (ServerFixture fixture = new ServerFixture(config))
        {
            fixture.start(ServerOptions.builder().name("compaction-lag").listenClientUrl(URI.create("http://127.0.0.1:0"))
                .writeAdmission(false));
            final RawWatchStream slow = new RawWatchStream(fixture.channel, false);
            slow.create("lag/", "lag0", 0);
            assertTrue(slow.next().getCreated());
            final long first = fixture.engine.currentRevision() + 1;
            final String value = "v".repeat(VALUE_BYTES);
            for (int i = 0; i < WRITES; i++)
            {
                fixture.engine.put("lag/" + (i % 50), value);
            }
            final long last = fixture.engine.currentRevision();
            final long compactAt = first + WRITES / 2;
            KVGrpc.newBlockingStub(fixture.channel).compact(CompactionRequest.newBuilder().setRevision(compactAt).setPhysical(physical).build());
            slow.startReading();
            long expected = first;
            long resumeAt = 0;
            while (expected <= last)
            {
                final WatchResponse response = slow.next();
                if (response.getCanceled())
                {
                    assertEquals(compactAt, response.getCompactRevision(), "the compacted cancel names the compaction");
                    assertTrue(expected < compactAt, "cancelled as compacted only while it needs history before " + compactAt);
                    resumeAt = response.getCompactRevision();
                    break;
                }
                for (final Event event : response.getEventsList())
                {
                    assertEquals(expected++, event.getKv().getModRevision(), "no gap, no duplicate");
                }
            }
            System.out.printf("%s: events %d to %d of %d to %d, resumed at %d%n", config.name(), first, expected - 1, first, last, resumeAt);
            slow.close();
            if (resumeAt != 0)
            {
                // As an etcd client does: watch again from the compact revision, which etcd still serves.
                final RawWatchStream resumed = new RawWatchStream(fixture.channel, true);
                resumed.create(WatchCreateRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8("lag/")).setRangeEnd(ByteString.copyFromUtf8("lag0"))
                    .setStartRevision(resumeAt));
                assertTrue(resumed.next().getCreated());
                long next = resumeAt;
                while (next <= last)
                {
                    final WatchResponse response = resumed.next();
                    assertTrue(!response.getCanceled(), "a watch from the compact revision is served: " + response);
                    for (final Event event : response.getEventsList())
                    {
                        assertEquals(next++, event.getKv().getModRevision(), "from the compact revision on, no gap, no duplicate");
                    }
                }
                resumed.close();
            }
        }
    }
}
