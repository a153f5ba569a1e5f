package io.ringwatch.server;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import com.google.protobuf.ByteString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import static io.ringwatch.server.ServerFixture.bytes;
import static io.ringwatch.server.ServerFixture.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's KV service as jetcd sees it: Range with every option, Put, DeleteRange, errors.
 */
class KvServiceTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();
    private static KV kv;

    @BeforeAll
    static void start()
    {
        kv = fixture.client.getKVClient();
    }

    @Test
    void putThenGetReturnsTheValueWithEtcdRevisionsAndHeader() throws Exception
    {
        final PutResponse first = kv.put(bytes("kv/a"), bytes("1")).get();
        final PutResponse second = kv.put(bytes("kv/a"), bytes("2"), PutOption.builder().withPrevKV().build()).get();
        assertEquals(first.getHeader().getRevision() + 1, second.getHeader().getRevision());
        assertTrue(second.hasPrevKv());
        assertEquals("1", text(second.getPrevKv().getValue()));

        final GetResponse get = kv.get(bytes("kv/a")).get();
        final KeyValue got = get.getKvs().get(0);
        assertEquals("2", text(got.getValue()));
        assertEquals(first.getHeader().getRevision(), got.getCreateRevision());
        assertEquals(second.getHeader().getRevision(), got.getModRevision());
        assertEquals(2, got.getVersion());
        assertEquals(1, get.getCount());
        assertEquals(fixture.server.member().memberId(), get.getHeader().getMemberId());
        assertEquals(fixture.server.member().clusterId(), get.getHeader().getClusterId());
        assertTrue(get.getHeader().getRaftTerm() > 0);
        assertEquals(fixture.engine.currentRevision(), get.getHeader().getRevision());
    }

    @Test
    void manyPutsInFlightAtOnceAreEachAnsweredWithItsOwnRevision() throws Exception
    {
        // Far more puts outstanding than there would be gRPC executor threads if each waited on
        // one: every put is answered, each with a revision of its own, and the put with a key's
        // highest revision is the value the key holds.
        final int puts = 5_000;
        final List<CompletableFuture<PutResponse>> answers = new ArrayList<>(puts);
        for (int i = 0; i < puts; i++)
        {
            answers.add(kv.put(bytes("inflight/" + (i % 50)), bytes(Integer.toString(i))));
        }
        final long[] revisions = new long[puts];
        for (int i = 0; i < puts; i++)
        {
            revisions[i] = answers.get(i).get().getHeader().getRevision();
        }

        assertEquals(puts, Arrays.stream(revisions).distinct().count());
        for (int key = 0; key < 50; key++)
        {
            int lastPut = key;
            for (int i = key; i < puts; i += 50)
            {
                lastPut = revisions[i] > revisions[lastPut] ? i : lastPut;
            }
            final KeyValue held = kv.get(bytes("inflight/" + key)).get().getKvs().get(0);
            assertEquals(Integer.toString(lastPut), text(held.getValue()));
            assertEquals(revisions[lastPut], held.getModRevision());
        }
    }

    @Test
    void prefixLimitCountAndMore() throws Exception
    {
        for (final String key : List.of("p/a", "p/b", "p/c", "pz"))
        {
            kv.put(bytes(key), bytes(key)).get();
        }
        final GetResponse prefix = kv.get(bytes("p/"), GetOption.builder().isPrefix(true).build()).get();
        assertEquals(List.of("p/a", "p/b", "p/c"), keys(prefix));
        assertEquals(3, prefix.getCount());
        assertFalse(prefix.isMore());

        final GetResponse limited = kv.get(bytes("p/"), GetOption.builder().isPrefix(true).withLimit(2).build()).get();
        assertEquals(List.of("p/a", "p/b"), keys(limited));
        assertEquals(3, limited.getCount());
        assertTrue(limited.isMore());
    }

    @Test
    void rangeEndZeroByteMeansEveryKeyFromTheKeyOn() throws Exception
    {
        kv.put(bytes("zz/1"), bytes("x")).get();
        kv.put(bytes("zz/2"), bytes("x")).get();
        final GetResponse from = kv.get(bytes("zz/1"), GetOption.builder().withRange(ByteSequence.from(new byte[] {0})).build()).get();
        assertEquals(List.of("zz/1", "zz/2"), keys(from));

        final GetResponse all = kv.get(ByteSequence.from(new byte[] {0}),
            GetOption.builder().withRange(ByteSequence.from(new byte[] {0})).withCountOnly(true).build()).get();
        assertEquals(fixture.engine.size(), all.getCount());
        assertTrue(all.getKvs().isEmpty());
    }

    @Test
    void rangeEndBeforeKeyIsEmpty() throws Exception
    {
        kv.put(bytes("e/b"), bytes("x")).get();
        final GetResponse empty = kv.get(bytes("e/b"), GetOption.builder().withRange(bytes("e/a")).build()).get();
        assertTrue(empty.getKvs().isEmpty());
        assertEquals(0, empty.getCount());
    }

    @Test
    void readAtAPastRevision() throws Exception
    {
        final long before = kv.put(bytes("h/k"), bytes("old")).get().getHeader().getRevision();
        kv.put(bytes("h/k"), bytes("new")).get();
        final GetResponse past = kv.get(bytes("h/k"), GetOption.builder().withRevision(before).build()).get();
        assertEquals("old", text(past.getKvs().get(0).getValue()));
        assertEquals(fixture.engine.currentRevision(), past.getHeader().getRevision());
    }

    @Test
    void sortByEveryTargetAndOrder() throws Exception
    {
        kv.put(bytes("s/b"), bytes("3")).get();
        kv.put(bytes("s/a"), bytes("2")).get();
        kv.put(bytes("s/c"), bytes("1")).get();
        kv.put(bytes("s/a"), bytes("4")).get();
        assertEquals(List.of("s/c", "s/b", "s/a"), keys(sorted(GetOption.SortTarget.KEY, GetOption.SortOrder.DESCEND)));
        assertEquals(List.of("s/c", "s/b", "s/a"), keys(sorted(GetOption.SortTarget.VALUE, GetOption.SortOrder.ASCEND)));
        assertEquals(List.of("s/b", "s/c", "s/a"), keys(sorted(GetOption.SortTarget.MOD, GetOption.SortOrder.ASCEND)));
        assertEquals(List.of("s/c", "s/a", "s/b"), keys(sorted(GetOption.SortTarget.CREATE, GetOption.SortOrder.DESCEND)));
        assertEquals("s/a", keys(sorted(GetOption.SortTarget.VERSION, GetOption.SortOrder.DESCEND)).get(0));
        // etcd: a target other than KEY with order NONE sorts ascending.
        assertEquals(List.of("s/c", "s/b", "s/a"), keys(sorted(GetOption.SortTarget.VALUE, GetOption.SortOrder.NONE)));
    }

    @Test
    void sortThenLimit() throws Exception
    {
        kv.put(bytes("sl/a"), bytes("1")).get();
        kv.put(bytes("sl/b"), bytes("2")).get();
        kv.put(bytes("sl/c"), bytes("3")).get();
        final GetResponse top = kv.get(bytes("sl/"), GetOption.builder().isPrefix(true).withLimit(1)
            .withSortField(GetOption.SortTarget.VALUE).withSortOrder(GetOption.SortOrder.DESCEND).build()).get();
        assertEquals(List.of("sl/c"), keys(top));
        assertTrue(top.isMore());
        assertEquals(3, top.getCount());
    }

    @Test
    void keysOnlyCountOnlyAndSerializable() throws Exception
    {
        kv.put(bytes("ko/a"), bytes("value")).get();
        final GetResponse keysOnly = kv.get(bytes("ko/a"), GetOption.builder().withKeysOnly(true).withSerializable(true).build()).get();
        assertEquals("ko/a", text(keysOnly.getKvs().get(0).getKey()));
        assertTrue(keysOnly.getKvs().get(0).getValue().isEmpty());
        final GetResponse countOnly = kv.get(bytes("ko/a"), GetOption.builder().withCountOnly(true).build()).get();
        assertEquals(1, countOnly.getCount());
        assertTrue(countOnly.getKvs().isEmpty());
    }

    @Test
    void revisionFilters() throws Exception
    {
        final long a = kv.put(bytes("f/a"), bytes("1")).get().getHeader().getRevision();
        final long b = kv.put(bytes("f/b"), bytes("1")).get().getHeader().getRevision();
        final long c = kv.put(bytes("f/c"), bytes("1")).get().getHeader().getRevision();
        kv.put(bytes("f/a"), bytes("2")).get();
        final GetOption.Builder prefix = GetOption.builder().isPrefix(true);
        assertEquals(List.of("f/a", "f/c"), keys(kv.get(bytes("f/"), prefix.withMinModRevision(c).build()).get()));
        assertEquals(List.of("f/b", "f/c"), keys(kv.get(bytes("f/"), GetOption.builder().isPrefix(true).withMaxModRevision(c).build()).get()));
        assertEquals(List.of("f/b", "f/c"), keys(kv.get(bytes("f/"), GetOption.builder().isPrefix(true).withMinCreateRevision(b).build()).get()));
        final GetResponse maxCreate = kv.get(bytes("f/"), GetOption.builder().isPrefix(true).withMaxCreateRevision(a).build()).get();
        assertEquals(List.of("f/a"), keys(maxCreate));
        assertEquals(3, maxCreate.getCount(), "count is the range's size before the filters, as etcd's");
    }

    @Test
    void deleteRangeWithPrevKv() throws Exception
    {
        kv.put(bytes("d/a"), bytes("1")).get();
        kv.put(bytes("d/b"), bytes("2")).get();
        kv.put(bytes("dz"), bytes("3")).get();
        final DeleteResponse deleted = kv.delete(bytes("d/"), DeleteOption.builder().isPrefix(true).withPrevKV(true).build()).get();
        assertEquals(2, deleted.getDeleted());
        assertEquals(List.of("1", "2"), deleted.getPrevKvs().stream().map(k -> text(k.getValue())).collect(Collectors.toList()));
        assertEquals(0, kv.get(bytes("d/"), GetOption.builder().isPrefix(true).build()).get().getCount());
        assertEquals(1, kv.get(bytes("dz")).get().getCount());
        assertEquals(0, kv.delete(bytes("d/a")).get().getDeleted());
    }

    @Test
    void futureRevisionIsRefusedWithEtcdsMessage()
    {
        final Status status = error(kv.get(bytes("x"), GetOption.builder().withRevision(fixture.engine.currentRevision() + 100).build()));
        assertEquals(Status.Code.OUT_OF_RANGE, status.getCode());
        assertEquals("etcdserver: mvcc: required revision is a future revision", status.getDescription());
    }

    @Test
    void leaseIsNotFound() throws Exception
    {
        final long before = fixture.engine.currentRevision();
        final Status status = error(kv.put(bytes("l/a"), bytes("1"), PutOption.builder().withLeaseId(42).build()));
        assertEquals(Status.Code.NOT_FOUND, status.getCode());
        assertEquals("etcdserver: requested lease not found", status.getDescription());
        assertEquals(before, fixture.engine.currentRevision(), "a refused put changes nothing");
    }

    @Test
    void emptyKeyIsRefusedWithInvalidArgument()
    {
        final KVGrpc.KVBlockingStub stub = KVGrpc.newBlockingStub(fixture.channel);
        final StatusRuntimeException range = assertThrows(StatusRuntimeException.class, () -> stub.range(RangeRequest.newBuilder().build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, range.getStatus().getCode());
        assertEquals("etcdserver: key is not provided", range.getStatus().getDescription());
        final StatusRuntimeException put = assertThrows(StatusRuntimeException.class, () -> stub.put(PutRequest.newBuilder().build()));
        assertEquals("etcdserver: key is not provided", put.getStatus().getDescription());
    }

    @Test
    void ignoreValueKeepsTheValueAndIgnoreLeaseNeedsAKey() throws Exception
    {
        final KVGrpc.KVBlockingStub stub = KVGrpc.newBlockingStub(fixture.channel);
        kv.put(bytes("iv/a"), bytes("kept")).get();
        final long revision = stub.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("iv/a")).setIgnoreValue(true).setPrevKv(true).build())
            .getHeader().getRevision();
        final RangeResponse after = stub.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("iv/a")).build());
        assertEquals("kept", after.getKvs(0).getValue().toStringUtf8());
        assertEquals(revision, after.getKvs(0).getModRevision());
        assertEquals(2, after.getKvs(0).getVersion());

        final StatusRuntimeException absent = assertThrows(StatusRuntimeException.class, () -> stub.put(
            PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("iv/none")).setIgnoreLease(true).setValue(ByteString.copyFromUtf8("v")).build()));
        assertEquals("etcdserver: key not found", absent.getStatus().getDescription());
        final StatusRuntimeException valueGiven = assertThrows(StatusRuntimeException.class, () -> stub.put(
            PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("iv/a")).setIgnoreValue(true).setValue(ByteString.copyFromUtf8("v")).build()));
        assertEquals("etcdserver: value is provided", valueGiven.getStatus().getDescription());
        final StatusRuntimeException leaseGiven = assertThrows(StatusRuntimeException.class, () -> stub.put(
            PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("iv/a")).setIgnoreLease(true).setLease(7).build()));
        assertEquals("etcdserver: lease is provided", leaseGiven.getStatus().getDescription());
    }

    @Test
    void unknownSortOptionIsRefused()
    {
        final KVGrpc.KVBlockingStub stub = KVGrpc.newBlockingStub(fixture.channel);
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.range(
            RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("a")).setSortOrderValue(9).build()));
        assertEquals("etcdserver: invalid sort option", e.getStatus().getDescription());
    }

    private static GetResponse sorted(final GetOption.SortTarget target, final GetOption.SortOrder order) throws Exception
    {
        return kv.get(bytes("s/"), GetOption.builder().isPrefix(true).withSortField(target).withSortOrder(order).build()).get();
    }

    static List<String> keys(final GetResponse response)
    {
        return response.getKvs().stream().map(k -> text(k.getKey())).collect(Collectors.toList());
    }

    /**
     * jetcd 0.8 hands gRPC's own exception to the caller; etcd's message is its status description.
     */
    static Status error(final CompletableFuture<?> call)
    {
        final ExecutionException e = assertThrows(ExecutionException.class, call::get);
        Throwable cause = e.getCause();
        while (cause != null && !(cause instanceof StatusRuntimeException))
        {
            cause = cause.getCause();
        }
        assertTrue(cause != null, () -> "no gRPC status in " + e);
        return ((StatusRuntimeException)cause).getStatus();
    }
}
