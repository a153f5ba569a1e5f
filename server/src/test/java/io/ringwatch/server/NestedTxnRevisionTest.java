package io.ringwatch.server;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.ringwatch.server.ServerFixture.bytes;
import static io.ringwatch.server.ServerFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's rule for the revisions that range operations name, on a nested transaction's chosen
 * path, through jetcd: a range at a future or compacted revision anywhere on the path refuses the
 * whole transaction with etcd's error and changes nothing, as etcd's {@code checkRange} does; valid
 * nested ranges answer, and a bad range on a branch not taken refuses nothing.
 */
class NestedTxnRevisionTest
{
    private static final Op[] NONE = {};
    private static final Cmp[] ALWAYS = {};

    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();
    /** The fixture's server runs before each test instance is made. */
    private final KV kv = fixture.client.getKVClient();

    @Test
    void aFutureRangeTwoLevelsDownTheChosenPathIsEtcdsFutureRevisionErrorAndChangesNothing() throws Exception
    {
        final long current = kv.put(bytes("nf/a"), bytes("1")).get().getHeader().getRevision();
        final Op deepest = Op.txn(ALWAYS, new Op[] {put("nf/c"), get("nf/a", current + 1)}, NONE);
        final Op middle = Op.txn(new Cmp[] {valueIs("nf/a", "1")}, new Op[] {put("nf/b"), deepest}, new Op[] {put("nf/else")});

        final Status refused = KvServiceTest.error(kv.txn().Then(put("nf/outer"), middle).commit());

        assertEquals(Status.Code.OUT_OF_RANGE, refused.getCode());
        assertEquals("etcdserver: mvcc: required revision is a future revision", refused.getDescription());
        assertUnchanged(current, "nf/outer", "nf/b", "nf/c", "nf/else");
    }

    @Test
    void aCompactedRangeInANestedElseBranchIsEtcdsCompactedErrorAndChangesNothing() throws Exception
    {
        final long old = kv.put(bytes("nc/a"), bytes("1")).get().getHeader().getRevision();
        final long compactAt = kv.put(bytes("nc/a"), bytes("2")).get().getHeader().getRevision();
        kv.compact(compactAt).get();
        final Op nested = Op.txn(new Cmp[] {valueIs("nc/a", "other")}, new Op[] {put("nc/then")},
            new Op[] {put("nc/else"), get("nc/a", old)});

        final Status refused = KvServiceTest.error(kv.txn().Then(nested, put("nc/outer")).commit());

        assertEquals(Status.Code.OUT_OF_RANGE, refused.getCode());
        assertEquals("etcdserver: mvcc: required revision has been compacted", refused.getDescription());
        assertUnchanged(compactAt, "nc/then", "nc/else", "nc/outer");
    }

    @Test
    void nestedRangesAtValidRevisionsAnswerWithTheStoreAtThoseRevisions() throws Exception
    {
        final long first = kv.put(bytes("nv/a"), bytes("1")).get().getHeader().getRevision();
        final long current = kv.put(bytes("nv/a"), bytes("2")).get().getHeader().getRevision();
        final Op deepest = Op.txn(ALWAYS, new Op[] {get("nv/a", first)}, NONE);
        final Op nested = Op.txn(ALWAYS, new Op[] {put("nv/b"), get("nv/a", current), deepest}, NONE);

        final TxnResponse response = kv.txn().Then(put("nv/outer"), nested).commit().get();

        assertTrue(response.isSucceeded());
        assertEquals(current + 1, response.getHeader().getRevision());
        final TxnResponse inner = response.getTxnResponses().get(0);
        assertEquals("2", value(inner.getGetResponses().get(0)));
        assertEquals("1", value(inner.getTxnResponses().get(0).getGetResponses().get(0)));
        assertEquals(current + 1, kv.get(bytes("nv/b")).get().getKvs().get(0).getModRevision());
    }

    @Test
    void aFutureRangeOnANestedBranchNotTakenRefusesNothing() throws Exception
    {
        final long current = kv.put(bytes("nn/a"), bytes("1")).get().getHeader().getRevision();
        final Op nested = Op.txn(new Cmp[] {valueIs("nn/a", "other")}, new Op[] {get("nn/a", current + 1_000)},
            new Op[] {put("nn/else")});

        final TxnResponse response = kv.txn().Then(nested).commit().get();

        assertTrue(response.isSucceeded());
        assertFalse(response.getTxnResponses().get(0).isSucceeded());
        assertEquals(current + 1, kv.get(bytes("nn/else")).get().getKvs().get(0).getModRevision());
    }

    private void assertUnchanged(final long revision, final String... keys) throws Exception
    {
        assertEquals(revision, fixture.engine.currentRevision(), "no revision was taken");
        for (final String key : keys)
        {
            assertEquals(0, kv.get(bytes(key)).get().getCount(), key + " was not written");
        }
    }

    private static Op put(final String key)
    {
        return Op.put(bytes(key), bytes("1"), PutOption.DEFAULT);
    }

    private static Op get(final String key, final long revision)
    {
        return Op.get(bytes(key), GetOption.builder().withRevision(revision).build());
    }

    private static Cmp valueIs(final String key, final String value)
    {
        return new Cmp(bytes(key), Cmp.Op.EQUAL, CmpTarget.value(bytes(value)));
    }

    private static String value(final GetResponse get)
    {
        return text(get.getKvs().get(0).getValue());
    }
}
