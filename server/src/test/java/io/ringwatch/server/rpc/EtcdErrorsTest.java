package io.ringwatch.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.HistoryLostException;
import io.ringwatch.engine.errors.RingWatchException;
import org.junit.jupiter.api.Test;

/**
 * The engine's errors as the server answers them: a gap in the log is DATA_LOSS naming the missing
 * revisions, never etcd's compacted error (a client would resume from the compact revision and meet
 * the same gap again).
 */
class EtcdErrorsTest
{
    @Test
    void lostHistoryIsDataLossNamingTheMissingRevisions()
    {
        final StatusRuntimeException answer = EtcdErrors.fromEngine(new HistoryLostException(100, 401, 600, null));
        assertEquals(Status.Code.DATA_LOSS, answer.getStatus().getCode());
        assertTrue(answer.getStatus().getDescription().contains("401..600"), answer.getStatus().getDescription());
    }

    @Test
    void compactionKeepsEtcdsMessageAndAnythingElseIsInternal()
    {
        final StatusRuntimeException compacted = EtcdErrors.fromEngine(new CompactedException(3, 7));
        assertEquals(Status.Code.OUT_OF_RANGE, compacted.getStatus().getCode());
        assertEquals(EtcdErrors.COMPACTED_MESSAGE, compacted.getStatus().getDescription());
        final StatusRuntimeException other = EtcdErrors.fromEngine(new RingWatchException("boom"));
        assertEquals(Status.Code.INTERNAL, other.getStatus().getCode());
    }
}
