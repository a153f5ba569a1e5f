package io.ringwatch.perf.peer;

/**
 * What the etcd-driven peers ({@link EtcdPeer}, and through it {@link RingWatchServerPeer}) ask of
 * an etcd v3 client: the server's version, puts that complete on the client's threads, and prefix
 * watches that report each event's intended send time. One client drives both peers in a run, so
 * that its cost per put and per event weighs the same on either side. Thread-safe.
 */
interface EtcdClient extends AutoCloseable
{
    /** Receives the end of a put, on a client thread. */
    @FunctionalInterface
    interface PutDone
    {
        /**
         * @param error null when the put succeeded.
         */
        void done(Throwable error);
    }

    /** Receives a watch's events, on a client thread. */
    interface EventSink
    {
        /**
         * @param intendedNanos the intended send time the event's value carries.
         * @param receivedNanos when the response holding it arrived.
         */
        void onEvent(long intendedNanos, long receivedNanos);

        /**
         * @param error why the watch ended.
         */
        void onError(Throwable error);
    }

    /**
     * @return the client, for reports (e.g. {@code jetcd 0.8.7}).
     */
    String description();

    /**
     * @return the version the server reports (Maintenance.Status).
     * @throws IllegalStateException if the server does not answer.
     */
    String serverVersion();

    /**
     * Sends a put without waiting.
     *
     * @param key   the key.
     * @param value the value; the client copies it before returning.
     * @param done  called once it is answered.
     * @return the put's header revision once answered, later; used by the preload only.
     */
    java.util.concurrent.CompletableFuture<Long> put(byte[] key, byte[] value, PutDone done);

    /**
     * Starts a prefix watch.
     *
     * @param prefix       the key prefix.
     * @param fromRevision the first revision to deliver.
     * @param sink         receives the events.
     */
    void watchPrefix(byte[] prefix, long fromRevision, EventSink sink);

    /** Ends the watches and the connection. */
    @Override
    void close();
}
