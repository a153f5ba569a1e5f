package io.ringwatch.server.kv;

import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.TxnRequest;

/**
 * Lets the KV service parse a transaction nested as deep as etcd takes one. etcd bounds nesting only
 * by --max-txn-ops (each level gets what its parent left, so a chain of one-op transactions is up to
 * that many levels deep) and its Go decoder by nothing; protobuf-java refuses a message nested past
 * 100 levels, and each level of a transaction is two (RequestOp, then TxnRequest), so gRPC would
 * fail a 50-level chain that etcd applies, with UNKNOWN. Txn's request is parsed with a recursion
 * limit that fits the deepest chain --max-txn-ops allows, up to {@link #MAX_RECURSION_LIMIT}, which
 * bounds the parser's stack on the transport thread. Stateless.
 */
public final class DeepTxns
{
    /** The deepest nesting parsed, whatever --max-txn-ops: a chain etcd's --max-txn-ops 496 allows. */
    public static final int MAX_RECURSION_LIMIT = 1_000;

    private DeepTxns()
    {
    }

    /**
     * @param maxTxnOps etcd's --max-txn-ops.
     * @return the message nesting a transaction within that budget reaches: two per level, the
     *         innermost operation's two, and room for a chain that --max-txn-ops then refuses.
     */
    public static int recursionLimit(final int maxTxnOps)
    {
        return (int)Math.min(MAX_RECURSION_LIMIT, 2L * maxTxnOps + 8);
    }

    /**
     * @param kv        the KV service, bound.
     * @param maxTxnOps etcd's --max-txn-ops.
     * @return the same service whose Txn parses requests with {@link #recursionLimit(int)}. Allocates
     *         the new definition; call once, at start.
     */
    public static ServerServiceDefinition parseDeep(final ServerServiceDefinition kv, final int maxTxnOps)
    {
        final ServerServiceDefinition.Builder deep = ServerServiceDefinition.builder(kv.getServiceDescriptor().getName());
        for (final ServerMethodDefinition<?, ?> method : kv.getMethods())
        {
            if (method.getMethodDescriptor().getFullMethodName().equals(KVGrpc.getTxnMethod().getFullMethodName()))
            {
                deep.addMethod(deepTxn(method, maxTxnOps));
            }
            else
            {
                deep.addMethod(method);
            }
        }
        return deep.build();
    }

    @SuppressWarnings("unchecked")
    private static <R> ServerMethodDefinition<TxnRequest, R> deepTxn(final ServerMethodDefinition<?, ?> method, final int maxTxnOps)
    {
        final ServerMethodDefinition<TxnRequest, R> txn = (ServerMethodDefinition<TxnRequest, R>)method;
        final MethodDescriptor<TxnRequest, R> descriptor = txn.getMethodDescriptor().toBuilder()
            .setRequestMarshaller(ProtoUtils.marshallerWithRecursionLimit(TxnRequest.getDefaultInstance(), recursionLimit(maxTxnOps)))
            .build();
        return ServerMethodDefinition.create(descriptor, txn.getServerCallHandler());
    }
}
