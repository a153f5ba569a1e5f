package io.ringwatch.perf;

/**
 * The peers the harness can drive, by their {@code --engine} name.
 */
public enum PeerKind
{
    /** RingWatch in this JVM. */
    RINGWATCH,
    /** The j.u.c. baseline (lock + map + a queue and thread per watcher) in this JVM. */
    JUC,
    /** An etcd server, over gRPC. */
    ETCD
}
