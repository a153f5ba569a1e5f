package io.ringwatch.engine.dispatch;

/**
 * The part of a watcher that its {@link Dispatcher} shard alone reads and writes: where the
 * watcher sits in the shard's lists, from which revision the routes serve it, and what of its
 * queue the shard's pending budget counts. Kept in a class of its own (a layer of the watcher,
 * so it costs no object of its own) so that no other thread's code can reach these fields by
 * accident, as Aeron keeps a publication's conductor and sender fields apart.
 *
 * <p>Threads: the owning dispatcher thread only. Allocation: none.
 */
abstract class ShardFields
{
    /** The dispatcher batch that last touched this watcher. */
    long touchedInBatch = -1;
    /** Position in the shard's registry, -1 when not registered. */
    int registryIndex = -1;
    /** Position in the shard's list of progress watchers, -1 when not in it. */
    int progressIndex = -1;
    /** The first revision the routes offer this watcher; set each time it joins them. */
    long routedFrom;
    /** The queue index of the last progress marker offered, -1 when none is pending. */
    long markerAt = -1;
    /** Position in the shard's list of queue holders, which its budget recounts; -1 when not in it. */
    int holderIndex = -1;
}
