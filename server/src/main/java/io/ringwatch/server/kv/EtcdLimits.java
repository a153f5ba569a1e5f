package io.ringwatch.server.kv;

import io.ringwatch.engine.config.RingWatchConfig;

/**
 * The sizes etcd takes with its defaults, and the engine settings that take them too. etcd has no
 * key or value limit of its own, only --max-request-bytes (1.5 MiB) on each write request; the
 * engine's defaults (4 KiB keys, 1 MiB values) would refuse, with messages no etcd client knows, a
 * write etcd takes, such as a Kubernetes object between 1 and 1.5 MiB. Stateless.
 */
public final class EtcdLimits
{
    /**
     * etcd's default --max-request-bytes: a write whose request is larger is refused with "request is
     * too large" before it reaches the store (etcd checks the raft request it would propose).
     */
    public static final int MAX_REQUEST_BYTES = 1_572_864;
    /**
     * What etcd's gRPC server takes beyond --max-request-bytes in one message (v3rpc grpc.go
     * {@code grpcOverheadBytes}): a larger message is refused by gRPC (RESOURCE_EXHAUSTED).
     */
    public static final int GRPC_OVERHEAD_BYTES = 512 * 1024;
    /** etcd's default --max-txn-ops: the most operations in each list of a transaction. */
    public static final int MAX_TXN_OPS = 128;
    /** The engine's largest key, the nearest it allows to etcd's none (a key is also bounded by the request). */
    public static final int MAX_KEY_BYTES = 65_536;

    private EtcdLimits()
    {
    }

    /**
     * Lets an engine take every key and value a write request within {@link #MAX_REQUEST_BYTES}
     * can carry (keys up to {@link #MAX_KEY_BYTES}). Caller's thread; no allocation.
     *
     * @param engine the engine's settings, changed in place.
     * @return {@code engine}, for chaining.
     */
    public static RingWatchConfig.Builder applyTo(final RingWatchConfig.Builder engine)
    {
        return applyTo(engine, MAX_REQUEST_BYTES);
    }

    /**
     * Lets an engine take every key and value a write request within {@code maxRequestBytes}
     * (etcd's --max-request-bytes) can carry, keys up to {@link #MAX_KEY_BYTES} and values up to
     * the engine's largest, 64 MiB. Caller's thread; no allocation.
     *
     * @param engine          the engine's settings, changed in place.
     * @param maxRequestBytes the server's --max-request-bytes.
     * @return {@code engine}, for chaining.
     */
    public static RingWatchConfig.Builder applyTo(final RingWatchConfig.Builder engine, final int maxRequestBytes)
    {
        return engine.maxKeyBytes(MAX_KEY_BYTES).maxValueBytes(Math.min(maxRequestBytes, 64 << 20));
    }
}
