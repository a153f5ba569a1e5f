package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.CompactionResponse;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Compact(0) as etcd's mvcc {@code updateCompactRev}: a store never compacted has compactMainRev
 * -1, so compacting at 0 is taken once (it changes nothing but that mark), and compacting at 0 or
 * below again is "required revision has been compacted"; the engine's compaction point starts at
 * 0, which made the first Compact(0) a compacted error. Its own server: it compacts.
 */
class CompactAtZeroTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    private static KVGrpc.KVBlockingStub kv()
    {
        return KVGrpc.newBlockingStub(fixture.channel);
    }

    private static String compactError(final long revision)
    {
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
            () -> kv().compact(CompactionRequest.newBuilder().setRevision(revision).build()));
        return e.getStatus().getCode() + " " + e.getStatus().getDescription();
    }

    @Test
    void compactAtZeroIsTakenOnceOnANeverCompactedStore()
    {
        final ByteString key = ByteString.copyFromUtf8("cz/a");
        kv().put(PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFromUtf8("1")).build());
        final long revision = kv().put(PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFromUtf8("2")).build())
            .getHeader().getRevision();
        final String compacted = "OUT_OF_RANGE etcdserver: mvcc: required revision has been compacted";
        assertEquals(compacted, compactError(-1), "below etcd's -1 of a store never compacted");
        final CompactionResponse atZero = kv().compact(CompactionRequest.newBuilder().setRevision(0).build());
        assertEquals(revision, atZero.getHeader().getRevision());
        assertEquals(0, fixture.engine.compactRevision(), "nothing compacted");
        assertEquals("1", kv().range(RangeRequest.newBuilder().setKey(key).setRevision(revision - 1).build())
            .getKvs(0).getValue().toStringUtf8());
        assertEquals(compacted, compactError(0), "etcd's compactMainRev is 0 now");
        assertEquals(compacted, compactError(-1));
        kv().compact(CompactionRequest.newBuilder().setRevision(revision - 1).build());
        assertEquals(compacted, compactError(0));
        assertEquals(compacted, compactError(revision - 1));
    }
}
