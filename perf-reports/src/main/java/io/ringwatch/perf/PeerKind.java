package io.ringwatch.perf;

/**
 * The peers the harness can drive, by their {@code --engine} name.
 */
public enum PeerKind
{
    /** RingWatch in this JVM. */
    RINGWATCH,
    /** The floor: a bare Disruptor ring and one handler thread in this JVM, under the same load. */
    DISRUPTOR,
    /** The j.u.c. baseline (lock + map + a queue and thread per watcher) in this JVM. */
    JUC,
    /** An etcd server, over gRPC. */
    ETCD,
    /** RingWatch's etcd v3 server in a process of its own, over gRPC with the etcd peer's client. */
    RINGWATCH_SERVER;

    /**
     * @return true for the peers whose durability {@code --persistence} sets (one run per mode).
     */
    boolean persistenceModes()
    {
        return this == RINGWATCH || this == RINGWATCH_SERVER;
    }

    /**
     * @return true for the peers driven through jetcd, which get {@code --etcd-rate} and
     *         {@code --etcd-max-in-flight} so that etcd and RingWatch's server see the same load.
     */
    boolean jetcdClient()
    {
        return this == ETCD || this == RINGWATCH_SERVER;
    }
}
