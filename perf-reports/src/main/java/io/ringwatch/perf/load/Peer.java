package io.ringwatch.perf.load;

/**
 * A watchable store the harness drives: RingWatch, the j.u.c. baseline or an etcd server. The
 * harness calls {@link #preload}, {@link #watch} for each watcher and {@link #ready} on the main
 * thread, {@link #newWriter} once on each producer thread, and {@link #close} at the end.
 */
public interface Peer extends AutoCloseable
{
    /**
     * @return the short name used in reports ("ringwatch", "juc", "etcd").
     */
    String name();

    /**
     * @return how this peer is configured, for the report.
     */
    String description();

    /**
     * Writes every key once and waits, so the measured writes update existing keys.
     *
     * @param workload the keys.
     * @throws InterruptedException if interrupted while waiting.
     */
    void preload(Workload workload) throws InterruptedException;

    /**
     * Starts one watcher on a prefix, from the next write on. Each event it receives is counted in
     * {@code deliveries} with its write-to-listener latency; a watch that ends early is counted in
     * {@code cancellations}.
     *
     * @param prefix        the keys watched.
     * @param pull          true for a pull watcher, drained by the peer's own polling threads.
     * @param deliveries    receives each event's latency.
     * @param cancellations receives the reason if the watch ends early.
     * @throws InterruptedException if interrupted while the watch is created.
     */
    void watch(byte[] prefix, boolean pull, LatencyRecorder deliveries, CancellationTally cancellations)
        throws InterruptedException;

    /**
     * Every watcher is started: begin whatever drains pull watchers. Called before the first write.
     */
    void ready();

    /**
     * Makes a writer for the calling producer thread; only that thread may use it.
     *
     * @param workload the keys and value size.
     * @param acks     receives each write's acknowledgement latency.
     * @return the writer.
     */
    PeerWriter newWriter(Workload workload, LatencyRecorder acks);

    /**
     * @return writes the peer refused or failed, so far.
     */
    long failedWrites();

    /**
     * Stops the peer and its threads.
     */
    @Override
    void close();
}
