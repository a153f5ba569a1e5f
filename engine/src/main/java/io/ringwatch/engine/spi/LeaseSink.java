package io.ringwatch.engine.spi;

/**
 * Receives the leases a journal recorded, at recovery ({@link Journal#loadLeases}). Called on the
 * recovering thread.
 */
@FunctionalInterface
public interface LeaseSink
{
    /**
     * One live lease.
     *
     * @param id         the lease id.
     * @param ttlSeconds its granted TTL, in seconds.
     */
    void lease(long id, long ttlSeconds);
}
