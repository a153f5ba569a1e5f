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
    ETCD
}
