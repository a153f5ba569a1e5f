package io.ringwatch.server.watch;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.CancelReason;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchCancellation;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.kv.EtcdLimits;
import io.ringwatch.server.rpc.MemberIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watch the engine cancels for a hole in its revision log ({@link CancelReason#HISTORY_LOST}:
 * revisions lost from the middle of the log, data loss rather than compaction) ends as etcd's
 * compacted response, so that an etcd client recovers: compact_revision the first revision still
 * served after the hole (jetcd and client-go treat any compact_revision above 0 as compacted and
 * relist, or resume there), header revision 0, and the engine's account of the loss as the cancel
 * reason for whoever reads it. The cancellation is handed to the watch by the test (a real hole
 * needs a persistent engine with a cycle file deleted: persistence's MissingCycleFileTest).
 */
class HistoryLostCancelTest
{
    private RingWatch engine;
    private RecordingResponses out;
    private WatchStream stream;

    @BeforeEach
    void open()
    {
        engine = RingWatch.open(RingWatchConfig.builder().name("history-lost-cancel").build());
        out = new RecordingResponses(true);
        stream = new WatchStream(engine, new MemberIdentity("m", List.of("http://127.0.0.1:2379")), out,
            new WatchPump("history-lost-cancel-pump", new AdmissionShares(engine.stats(), null, 1), 0, new Doorbell()), EtcdLimits.MAX_REQUEST_BYTES);
    }

    @AfterEach
    void close()
    {
        stream.close();
        engine.close();
    }

    @Test
    void aWatchCancelledForAHoleInTheLogEndsCompactedAtTheFirstRevisionServedAfterIt()
    {
        final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.key("hl/a")));
        final StreamWatch watch = new StreamWatch(stream, 7, watcher, 0, engine.currentRevision(), false, false,
            EtcdLimits.MAX_REQUEST_BYTES);

        synchronized (stream)
        {
            watch.onCancelled(new WatchCancellation(CancelReason.HISTORY_LOST, 601, null,
                "revisions 401..600 are lost from the revision log"));
        }

        final WatchResponse ended = out.responses.get(out.responses.size() - 1);
        assertEquals(7, ended.getWatchId());
        assertTrue(ended.getCanceled());
        assertEquals(601, ended.getCompactRevision(), "clients relist, or resume at the first revision still served");
        assertEquals(0, ended.getHeader().getRevision(), "etcd's compacted response carries no revision");
        assertTrue(ended.getCancelReason().contains("HISTORY_LOST") && ended.getCancelReason().contains("401..600"),
            ended.getCancelReason());
    }
}
