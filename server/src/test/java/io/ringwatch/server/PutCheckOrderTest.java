package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Which error etcd 3.4 gives a put that fails two checks at once, an ignore_value put of a missing
 * key on a missing lease: a put alone is refused for the lease (the applier's Put looks the lease
 * up before it reads the key), one inside a transaction for the key (checkRequestPut reads the key
 * first). Found by the differential test against etcd.
 */
class PutCheckOrderTest
{
    private static final long MISSING_LEASE = 4242;

    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();

    @Test
    void anIgnoreValuePutOfAMissingKeyOnAMissingLeaseIsRefusedForTheLease()
    {
        final StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
            () -> KVGrpc.newBlockingStub(fixture.channel).put(missingKeyOnMissingLease()));

        assertEquals(Status.Code.NOT_FOUND, refused.getStatus().getCode());
        assertEquals("etcdserver: requested lease not found", refused.getStatus().getDescription());
    }

    @Test
    void theSamePutInATransactionIsRefusedForTheKey()
    {
        final StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
            () -> KVGrpc.newBlockingStub(fixture.channel).txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(missingKeyOnMissingLease())).build()));

        assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
        assertEquals("etcdserver: key not found", refused.getStatus().getDescription());
    }

    private static PutRequest missingKeyOnMissingLease()
    {
        return PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("pco/missing")).setIgnoreValue(true)
            .setLease(MISSING_LEASE).build();
    }
}
