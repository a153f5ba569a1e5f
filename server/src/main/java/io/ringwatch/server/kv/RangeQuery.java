package io.ringwatch.server.kv;

import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import io.ringwatch.server.api.etcdserverpb.RangeResponse;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.server.rpc.EtcdErrors;
import io.ringwatch.server.rpc.KeyRanges;
import io.ringwatch.server.rpc.MemberIdentity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * etcd's Range over the engine: reads the whole range at one revision (the count is the range's
 * size, whatever the limit), then applies etcd's revision filters, sort and limit in etcd's order
 * (v3_server/txn.go). Stateless; allocates the read and the response.
 */
final class RangeQuery
{
    private RangeQuery()
    {
    }

    /**
     * Checks a range request as etcd's checkRangeRequest does.
     *
     * @param request the request.
     * @throws io.grpc.StatusRuntimeException etcd's error for an empty key or an unknown sort option.
     */
    static void check(final RangeRequest request)
    {
        if (request.getKey().isEmpty())
        {
            throw EtcdErrors.emptyKey();
        }
        if (request.getSortOrder() == RangeRequest.SortOrder.UNRECOGNIZED ||
            request.getSortTarget() == RangeRequest.SortTarget.UNRECOGNIZED)
        {
            throw EtcdErrors.invalidSortOption();
        }
    }

    /**
     * @param engine          the engine.
     * @param member          fills the header.
     * @param request         the checked request.
     * @param defaultRevision the revision to read at when the request names none (0: now).
     * @return etcd's response.
     */
    static RangeResponse execute(final RingWatch engine, final MemberIdentity member, final RangeRequest request,
        final long defaultRevision)
    {
        final long revision = request.getRevision() > 0 ? request.getRevision() : defaultRevision;
        final KeyRange range = KeyRanges.of(request.getKey(), request.getRangeEnd());
        if (range == null)
        {
            return emptyRange(engine, member, revision);
        }
        final RangeResult read = engine.range(range, 0, revision);
        return respond(member, request, read.kvs(), revision == 0 ? read.revision() : engine.currentRevision());
    }

    /**
     * Applies etcd's revision filters, sort and limit to a range already read.
     *
     * @param member         fills the header.
     * @param request        the checked request.
     * @param kvs            every key-value of the range, in key order.
     * @param headerRevision the header's revision.
     * @return etcd's response; its count is the size of {@code kvs}, whatever the filters and limit.
     */
    static RangeResponse respond(final MemberIdentity member, final RangeRequest request, final List<KeyValue> kvs,
        final long headerRevision)
    {
        final List<KeyValue> kept = filter(kvs, request);
        sort(kept, request);
        final RangeResponse.Builder response = RangeResponse.newBuilder()
            .setHeader(member.header(headerRevision))
            .setCount(kvs.size());
        if (request.getCountOnly())
        {
            return response.build();
        }
        final int limit = request.getLimit() > 0 && request.getLimit() < kept.size() ? (int)request.getLimit() : kept.size();
        for (int i = 0; i < limit; i++)
        {
            response.addKvs(KeyValues.toProto(kept.get(i), request.getKeysOnly()));
        }
        return response.setMore(limit < kept.size()).build();
    }

    private static RangeResponse emptyRange(final RingWatch engine, final MemberIdentity member, final long revision)
    {
        final long current = engine.currentRevision();
        if (revision > current)
        {
            throw EtcdErrors.futureRevision();
        }
        if (revision > 0 && revision < engine.compactRevision())
        {
            throw EtcdErrors.compacted();
        }
        return RangeResponse.newBuilder().setHeader(member.header(current)).build();
    }

    private static List<KeyValue> filter(final List<KeyValue> kvs, final RangeRequest request)
    {
        final long minMod = request.getMinModRevision();
        final long maxMod = request.getMaxModRevision();
        final long minCreate = request.getMinCreateRevision();
        final long maxCreate = request.getMaxCreateRevision();
        final List<KeyValue> kept = new ArrayList<>(kvs.size());
        for (final KeyValue kv : kvs)
        {
            if ((maxMod != 0 && kv.modRevision() > maxMod) || (minMod != 0 && kv.modRevision() < minMod) ||
                (maxCreate != 0 && kv.createRevision() > maxCreate) || (minCreate != 0 && kv.createRevision() < minCreate))
            {
                continue;
            }
            kept.add(kv);
        }
        return kept;
    }

    private static void sort(final List<KeyValue> kvs, final RangeRequest request)
    {
        RangeRequest.SortOrder order = request.getSortOrder();
        final RangeRequest.SortTarget target = request.getSortTarget();
        if (order == RangeRequest.SortOrder.NONE && target != RangeRequest.SortTarget.KEY)
        {
            // etcd: the store returns key order, so only another target implies sorting.
            order = RangeRequest.SortOrder.ASCEND;
        }
        if (order == RangeRequest.SortOrder.NONE || (order == RangeRequest.SortOrder.ASCEND && target == RangeRequest.SortTarget.KEY))
        {
            return;
        }
        final Comparator<KeyValue> byTarget = comparator(target);
        kvs.sort(order == RangeRequest.SortOrder.DESCEND ? byTarget.reversed() : byTarget);
    }

    private static Comparator<KeyValue> comparator(final RangeRequest.SortTarget target)
    {
        switch (target)
        {
            case VERSION:
                return Comparator.comparingLong(KeyValue::version);
            case CREATE:
                return Comparator.comparingLong(KeyValue::createRevision);
            case MOD:
                return Comparator.comparingLong(KeyValue::modRevision);
            case VALUE:
                return (a, b) -> Arrays.compareUnsigned(a.value(), b.value());
            default:
                return (a, b) -> Arrays.compareUnsigned(a.key(), b.key());
        }
    }
}
