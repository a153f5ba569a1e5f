package io.ringwatch.perf.peer;

/**
 * Which client drives the etcd v3 peers ({@code etcd}, {@code ringwatch-server}): the same one
 * drives both in a run.
 */
public enum EtcdClientKind
{
    /** jetcd 0.8.7, the Java etcd client. */
    JETCD,
    /** grpc-java's async stubs, without jetcd's wrappers: the lean client. */
    GRPC;

    EtcdClient connect(final String endpoint)
    {
        return this == JETCD ? new JetcdClient(endpoint) : new GrpcStubClient(endpoint);
    }
}
