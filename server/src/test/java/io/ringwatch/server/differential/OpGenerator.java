package io.ringwatch.server.differential;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import io.ringwatch.server.api.etcdserverpb.CompactionRequest;
import io.ringwatch.server.api.etcdserverpb.Compare;
import io.ringwatch.server.api.etcdserverpb.DeleteRangeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseGrantRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseLeasesRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseRevokeRequest;
import io.ringwatch.server.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RequestOp;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCancelRequest;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchProgressRequest;
import io.ringwatch.server.api.etcdserverpb.WatchRequest;

import java.util.Random;
import java.util.function.Function;

/**
 * A seeded random stream of etcd requests over a few keys: KV (every Range option, Put's flags,
 * DeleteRange, nested Txns with every compare target and result), physical Compact, the lease
 * calls with client-chosen ids (TTLs long enough never to expire in a run), and watch requests
 * (create with start revision, filters, prev_kv; cancel; progress). It reads what it needs of the
 * servers' state (current and compacted revision, watch states) from {@link State}, which the
 * harness keeps from the reference's answers. Not thread-safe.
 */
final class OpGenerator
{
    /** A request to send to both sides. */
    sealed interface Op permits Unary, Watch
    {
        String describe();
    }

    /** A unary call. */
    record Unary(String describe, Function<Side, Message> call, long compacts) implements Op
    {
    }

    /** A request on the watch stream; the harness settles the streams before and after it. */
    record Watch(String describe, WatchRequest request) implements Op
    {
    }

    /** What the generator reads of the servers' state. */
    interface State
    {
        long revision();

        long compacted();

        /** @return whether a progress request would be answered the same by etcd 3.4 and 3.5. */
        boolean progressComparable();

        /** @param watchId a watch id. @param startRevision its create request's start revision. */
        void created(long watchId, long startRevision);
    }

    private static final String[] KEYS = {"a", "a/1", "a/2", "ab", "b", "b/1", "c", "\u00ff"};
    private static final String[] VALUES = {"", "v0", "v1", "v2", "longer-value-3"};
    private static final int WATCH_IDS = 6;
    private static final long MISSING_LEASE = 99;
    private static final ByteString FROM_KEY = ByteString.copyFrom(new byte[] {0});

    private final Random random;
    private final State state;

    OpGenerator(final long seed, final State state)
    {
        this.random = new Random(seed);
        this.state = state;
    }

    Op next()
    {
        final int pick = random.nextInt(100);
        if (pick < 28)
        {
            final PutRequest put = put();
            return unary(put, side -> side.kv().put(put));
        }
        if (pick < 48)
        {
            final RangeRequest range = range();
            return unary(range, side -> side.kv().range(range));
        }
        if (pick < 56)
        {
            final DeleteRangeRequest delete = delete();
            return unary(delete, side -> side.kv().deleteRange(delete));
        }
        if (pick < 72)
        {
            final TxnRequest txn = txn(0);
            return unary(txn, side -> side.kv().txn(txn));
        }
        if (pick < 74)
        {
            final CompactionRequest compact = CompactionRequest.newBuilder()
                .setRevision(aroundRevision(state.compacted() - 1, state.revision() + 1)).setPhysical(random.nextBoolean()).build();
            return new Unary("CompactionRequest " + text(compact), side -> side.kv().compact(compact), compact.getRevision());
        }
        if (pick < 78)
        {
            final LeaseGrantRequest grant = LeaseGrantRequest.newBuilder().setID(leaseId())
                .setTTL(random.nextInt(20) == 0 ? 9_000_000_001L : 600 + random.nextInt(3000)).build();
            return unary(grant, side -> side.lease().leaseGrant(grant));
        }
        if (pick < 80)
        {
            final LeaseRevokeRequest revoke = LeaseRevokeRequest.newBuilder().setID(leaseId()).build();
            return unary(revoke, side -> side.lease().leaseRevoke(revoke));
        }
        if (pick < 83)
        {
            final LeaseTimeToLiveRequest ttl = LeaseTimeToLiveRequest.newBuilder().setID(leaseId()).setKeys(random.nextBoolean()).build();
            return unary(ttl, side -> side.lease().leaseTimeToLive(ttl));
        }
        if (pick < 85)
        {
            final LeaseLeasesRequest leases = LeaseLeasesRequest.getDefaultInstance();
            return unary(leases, side -> side.lease().leaseLeases(leases));
        }
        if (pick < 92)
        {
            return watchCreate();
        }
        if (pick < 97)
        {
            final long id = random.nextInt(WATCH_IDS + 1);
            return watch(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(id)).build());
        }
        if (state.progressComparable())
        {
            return watch(WatchRequest.newBuilder().setProgressRequest(WatchProgressRequest.getDefaultInstance()).build());
        }
        final RangeRequest range = range();
        return unary(range, side -> side.kv().range(range));
    }

    private Op watchCreate()
    {
        final String key = key();
        final long id = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(WATCH_IDS);
        final long start = id == 0 || random.nextInt(3) == 0 ? 0 : aroundRevision(state.compacted() - 1, state.revision() + 2);
        final WatchCreateRequest.Builder create = WatchCreateRequest.newBuilder().setKey(bytes(key))
            .setRangeEnd(rangeEnd(key)).setStartRevision(start).setWatchId(id).setPrevKv(random.nextInt(3) == 0)
            .setProgressNotify(random.nextInt(4) == 0);
        if (random.nextInt(4) == 0)
        {
            create.addFilters(WatchCreateRequest.FilterType.NOPUT);
        }
        if (random.nextInt(4) == 0)
        {
            create.addFilters(WatchCreateRequest.FilterType.NODELETE);
        }
        if (id != 0)
        {
            state.created(id, start);
        }
        return watch(WatchRequest.newBuilder().setCreateRequest(create).build());
    }

    private PutRequest put()
    {
        final PutRequest.Builder put = PutRequest.newBuilder().setKey(bytes(key())).setValue(bytes(value()))
            .setPrevKv(random.nextBoolean());
        if (random.nextInt(3) == 0)
        {
            put.setLease(leaseId());
        }
        if (random.nextInt(8) == 0)
        {
            put.setIgnoreValue(true);
            if (random.nextInt(3) != 0)
            {
                put.clearValue();
            }
        }
        if (random.nextInt(8) == 0)
        {
            put.setIgnoreLease(true);
            if (random.nextInt(3) != 0)
            {
                put.clearLease();
            }
        }
        return put.build();
    }

    private RangeRequest range()
    {
        final String key = key();
        final RangeRequest.Builder range = RangeRequest.newBuilder().setKey(bytes(key)).setRangeEnd(rangeEnd(key));
        if (random.nextInt(3) == 0)
        {
            range.setLimit(random.nextInt(12) == 0 ? -1 : random.nextInt(4));
        }
        if (random.nextInt(3) == 0)
        {
            range.setRevision(random.nextInt(12) == 0 ? -1 : aroundRevision(state.compacted() - 1, state.revision() + 1));
        }
        if (random.nextInt(3) == 0)
        {
            range.setSortOrderValue(random.nextInt(3)).setSortTargetValue(random.nextInt(5));
        }
        range.setSerializable(random.nextInt(4) == 0).setKeysOnly(random.nextInt(5) == 0).setCountOnly(random.nextInt(6) == 0);
        if (random.nextInt(5) == 0)
        {
            range.setMinModRevision(aroundRevision(0, state.revision() + 1));
        }
        if (random.nextInt(5) == 0)
        {
            range.setMaxModRevision(aroundRevision(0, state.revision() + 1));
        }
        if (random.nextInt(5) == 0)
        {
            range.setMinCreateRevision(aroundRevision(0, state.revision() + 1));
        }
        if (random.nextInt(5) == 0)
        {
            range.setMaxCreateRevision(aroundRevision(0, state.revision() + 1));
        }
        return range.build();
    }

    private DeleteRangeRequest delete()
    {
        final String key = key();
        return DeleteRangeRequest.newBuilder().setKey(bytes(key)).setRangeEnd(rangeEnd(key)).setPrevKv(random.nextBoolean()).build();
    }

    private TxnRequest txn(final int depth)
    {
        final TxnRequest.Builder txn = TxnRequest.newBuilder();
        for (int i = random.nextInt(4); i > 0; i--)
        {
            txn.addCompare(compare());
        }
        for (int i = random.nextInt(4); i > 0; i--)
        {
            txn.addSuccess(requestOp(depth));
        }
        for (int i = random.nextInt(3); i > 0; i--)
        {
            txn.addFailure(requestOp(depth));
        }
        return txn.build();
    }

    private RequestOp requestOp(final int depth)
    {
        final int pick = random.nextInt(depth < 2 ? 10 : 9);
        if (pick < 3)
        {
            return RequestOp.newBuilder().setRequestRange(range()).build();
        }
        if (pick < 6)
        {
            return RequestOp.newBuilder().setRequestPut(put()).build();
        }
        if (pick < 9)
        {
            // Not from a key on ("\0"): etcd's duplicate-key check misses a put inside such a
            // delete and applies both, which RingWatch's engine refuses (a known limit).
            final DeleteRangeRequest delete = delete();
            return RequestOp.newBuilder().setRequestDeleteRange(delete.getRangeEnd().equals(FROM_KEY)
                ? delete.toBuilder().clearRangeEnd().build() : delete).build();
        }
        return RequestOp.newBuilder().setRequestTxn(txn(depth + 1)).build();
    }

    private Compare compare()
    {
        final String key = key();
        final Compare.Builder compare = Compare.newBuilder().setKey(bytes(key))
            .setResultValue(random.nextInt(4));
        if (random.nextInt(4) == 0)
        {
            compare.setRangeEnd(rangeEnd(key));
        }
        switch (random.nextInt(5))
        {
            case 0 -> compare.setTarget(Compare.CompareTarget.VALUE).setValue(bytes(value()));
            case 1 -> compare.setTarget(Compare.CompareTarget.VERSION).setVersion(random.nextInt(4));
            case 2 -> compare.setTarget(Compare.CompareTarget.CREATE).setCreateRevision(aroundRevision(0, state.revision() + 1));
            case 3 -> compare.setTarget(Compare.CompareTarget.MOD).setModRevision(aroundRevision(0, state.revision() + 1));
            default -> compare.setTarget(Compare.CompareTarget.LEASE).setLease(random.nextInt(3) == 0 ? 0 : leaseId());
        }
        return compare.build();
    }

    private String key()
    {
        return random.nextInt(50) == 0 ? "" : KEYS[random.nextInt(KEYS.length)];
    }

    private String value()
    {
        return VALUES[random.nextInt(VALUES.length)];
    }

    private ByteString rangeEnd(final String key)
    {
        return switch (random.nextInt(6))
        {
            case 0, 1 -> ByteString.EMPTY;
            case 2 -> FROM_KEY;
            case 3 -> prefixEnd(bytes(key));
            default -> bytes(key());
        };
    }

    private long leaseId()
    {
        return random.nextInt(10) == 0 ? MISSING_LEASE : 1 + random.nextInt(4);
    }

    private long aroundRevision(final long low, final long high)
    {
        final long from = Math.max(0, low);
        return from + (long) random.nextInt((int) Math.max(1, high - from + 1));
    }

    private static ByteString bytes(final String text)
    {
        final byte[] raw = new byte[text.length()];
        for (int i = 0; i < raw.length; i++)
        {
            raw[i] = (byte) text.charAt(i);
        }
        return ByteString.copyFrom(raw);
    }

    private static ByteString prefixEnd(final ByteString key)
    {
        final byte[] end = key.toByteArray();
        for (int i = end.length - 1; i >= 0; i--)
        {
            if (end[i] != (byte) 0xff)
            {
                end[i]++;
                return ByteString.copyFrom(end, 0, i + 1);
            }
        }
        return ByteString.copyFrom(new byte[] {0});
    }

    private static Unary unary(final Message request, final Function<Side, Message> call)
    {
        return new Unary(request.getClass().getSimpleName() + " " + text(request), call, 0);
    }

    private static Watch watch(final WatchRequest request)
    {
        return new Watch("Watch " + text(request), request);
    }

    private static String text(final Message message)
    {
        return TextFormat.printer().emittingSingleLine(true).printToString(message);
    }
}
