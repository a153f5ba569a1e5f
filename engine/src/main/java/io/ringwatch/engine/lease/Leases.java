package io.ringwatch.engine.lease;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.LeaseExistsException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.errors.LeaseTtlException;

import java.util.concurrent.CompletableFuture;

/**
 * The engine's leases, as etcd's Lease service: grant, keep alive, revoke, read the time left,
 * list. Keys are attached by puts ({@link io.ringwatch.engine.kv.Op#withLease}); a put without a
 * lease detaches its key. When a lease is revoked or expires, every key attached to it is deleted
 * in ONE revision (watchers see the deletes together, each with its previous key-value), in key
 * order; a lease ends at most once.
 *
 * <p><b>Threading.</b> Any thread may call any method; each call goes through the write ring to
 * the one writer thread, in order with the writes, and waits for it (from the thread that completes
 * writes, as from a write's callback, it would wait for itself and is refused); the {@code *Async}
 * forms wait for nothing, but, like the engine's asynchronous writes, must not be started on the
 * thread that completes writes (it would publish into its own ring): chain them with
 * {@code thenComposeAsync}. The calling thread
 * reads the time from the configured {@link LeaseClock} and the command carries it: the writer
 * decides expiries and remaining TTLs from that time and reads no clock. Expiry: a timer thread
 * ({@code <name>-lease-timer}, every {@code leaseCheckInterval}) hands "expire what is due at T"
 * to the writer, which ends at most one lease per command, the one due first (ties by id), and the
 * timer repeats while any is due; {@link #expireDue()} does the same on the caller's thread.
 *
 * <p><b>Allocation.</b> Each call allocates its command's result (and an asynchronous one its
 * future). The engine keeps per lease one small object and its keys in an array, sorted up to 16
 * keys and hash-indexed beyond, so attaching or detaching a key costs O(1) however many the lease
 * holds (figures in jmh/README.md); a put that attaches a key
 * to a lease copies the key into the lease's set once; a put without a lease allocates nothing for
 * leases.
 */
public interface Leases
{
    /** The largest TTL a grant takes, in seconds (etcd's {@code MaxLeaseTTL}, about 285 years). */
    long MAX_TTL_SECONDS = 9_000_000_000L;

    /**
     * Grants a lease with an id the engine chooses (the lowest positive id above every id it has
     * chosen, skipping ids in use; after a restart, above the highest id of a recovered lease).
     *
     * @param ttlSeconds the time to live in seconds; below the configured minimum it is raised to
     *                   the minimum (etcd).
     * @return the lease and the TTL granted.
     * @throws LeaseTtlException     for a TTL above {@link #MAX_TTL_SECONDS}.
     * @throws EngineClosedException after close.
     */
    LeaseGrant grant(long ttlSeconds);

    /**
     * Grants a lease with the caller's id (etcd's LeaseGrant with {@code ID != 0}).
     *
     * @param id         the lease id, any but 0 (a negative one too, as etcd grants it); 0 lets the
     *                   engine choose, as {@link #grant(long)}.
     * @param ttlSeconds the time to live in seconds; raised to the minimum when below it.
     * @return the lease and the TTL granted.
     * @throws LeaseExistsException    when a live lease has {@code id}; nothing changes.
     * @throws LeaseTtlException       for a TTL above {@link #MAX_TTL_SECONDS}.
     * @throws EngineClosedException   after close.
     */
    LeaseGrant grant(long id, long ttlSeconds);

    /**
     * Grants a lease as {@link #grant(long, long)} does, without waiting (a server answering
     * LeaseGrant holds no thread while the writer decides). The future completes on
     * the thread that completes writes (the writer, or the journal thread of a persistent engine):
     * chain slow work with the {@code *Async} methods. Allocates the future and its completion.
     *
     * @param id         the lease id, any but 0 (a negative one too); 0 lets the engine choose.
     * @param ttlSeconds the time to live in seconds; raised to the minimum when below it.
     * @return the lease and the TTL granted, later; or, as the future's cause,
     *         {@link LeaseExistsException} or {@link LeaseTtlException} (already failed when
     *         returned), each changing nothing.
     * @throws EngineClosedException after close.
     */
    CompletableFuture<LeaseGrant> grantAsync(long id, long ttlSeconds);

    /**
     * Renews a lease: it now expires its granted TTL after the time this call read.
     *
     * @param id the lease.
     * @return the TTL it was renewed to, in seconds (etcd's LeaseKeepAliveResponse {@code TTL}).
     * @throws LeaseNotFoundException when no such lease lives, or it was already due at this
     *                                call's time: the keep-alive then ends it first, its keys
     *                                deleted in one revision (etcd's lessor makes such a renewal
     *                                wait for the revocation), so a refused caller never finds them.
     * @throws EngineClosedException  after close.
     */
    long keepAlive(long id);

    /**
     * Renews a lease as {@link #keepAlive(long)} does, without waiting: a caller renewing many
     * leases (a server's keep-alive streams) keeps many renewals in flight. The future completes on
     * the thread that completes writes (the writer, or the journal thread of a persistent engine):
     * chain slow work with the {@code *Async} methods. Allocates the future and its completion.
     *
     * @param id the lease.
     * @return the TTL it was renewed to, in seconds, later; or {@link LeaseNotFoundException}.
     * @throws EngineClosedException after close.
     */
    CompletableFuture<Long> keepAliveAsync(long id);

    /**
     * Revokes a lease: deletes every key attached to it in one revision, then forgets it.
     *
     * @param id the lease.
     * @return the revision after the revoke (the revision of the deletes, or the current one when
     *         the lease held no key).
     * @throws LeaseNotFoundException when no such lease lives; nothing changes.
     * @throws EngineClosedException  after close.
     */
    long revoke(long id);

    /**
     * Revokes a lease as {@link #revoke(long)} does, without waiting. The future completes on
     * the thread that completes writes (the writer, or the journal thread of a persistent engine):
     * chain slow work with the {@code *Async} methods. Allocates the future and its completion.
     *
     * @param id the lease.
     * @return the revision after the revoke, later; or {@link LeaseNotFoundException} as the
     *         future's cause, nothing changed.
     * @throws EngineClosedException after close.
     */
    CompletableFuture<Long> revokeAsync(long id);

    /**
     * Reads a lease's granted TTL and the time it has left, at the time this call read (etcd's
     * LeaseTimeToLive; etcd's server answers an unknown lease with TTL -1 rather than an error).
     *
     * @param id       the lease.
     * @param withKeys whether to list the keys attached to it (in key order).
     * @return what the lease has left.
     * @throws LeaseNotFoundException when no such lease lives.
     * @throws EngineClosedException  after close.
     */
    LeaseTimeToLive timeToLive(long id, boolean withKeys);

    /**
     * Reads a lease's time left as {@link #timeToLive(long, boolean)} does, without waiting. The
     * future completes on the thread that completes writes (the writer, or the journal thread of a
     * persistent engine): chain slow work with the {@code *Async} methods. Allocates the future and
     * its completion.
     *
     * @param id       the lease.
     * @param withKeys whether to list the keys attached to it (in key order).
     * @return what the lease has left, later; or {@link LeaseNotFoundException} as the future's cause.
     * @throws EngineClosedException after close.
     */
    CompletableFuture<LeaseTimeToLive> timeToLiveAsync(long id, boolean withKeys);

    /**
     * Lists the live leases (etcd's LeaseLeases).
     *
     * @return their ids in ascending order; a new array.
     * @throws EngineClosedException after close.
     */
    long[] leases();

    /**
     * Lists the live leases as {@link #leases()} does, without waiting. The future completes on
     * the thread that completes writes (the writer, or the journal thread of a persistent engine):
     * chain slow work with the {@code *Async} methods. Allocates the future and its completion.
     *
     * @return their ids in ascending order, later; a new array.
     * @throws EngineClosedException after close.
     */
    CompletableFuture<long[]> leasesAsync();

    /**
     * Ends every lease due at the clock's current time, one command (and one revision when it held
     * keys) per lease, in order of expiry then id, as the timer thread does. Lets a caller with a
     * manual {@link LeaseClock} (a test) decide when expiries happen, instead of waiting for the
     * timer.
     *
     * @return how many leases it ended.
     * @throws EngineClosedException after close.
     */
    int expireDue();
}
