package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.LeaseTtlException;
import io.ringwatch.engine.lease.LeaseGrant;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.engine.lease.Leases;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * {@link Leases} over the write ring: validates on the caller's thread, then hands each operation
 * to the writer as a command stamped with the lease clock's time and waits for it (or, for the
 * {@code *Async} forms, returns a future the completing thread completes). The writer's
 * {@link io.ringwatch.engine.internal.lease.LeaseTable} decides. Any thread but the one that
 * completes writes; each call allocates its result.
 */
final class WriterLeases implements Leases
{
    private final WritePipeline pipeline;

    WriterLeases(final WritePipeline pipeline)
    {
        this.pipeline = pipeline;
    }

    @Override
    public LeaseGrant grant(final long ttlSeconds)
    {
        return grant(0, ttlSeconds);
    }

    @Override
    public LeaseGrant grant(final long id, final long ttlSeconds)
    {
        final RuntimeException refused = checkGrant(id, ttlSeconds);
        if (refused != null)
        {
            throw refused;
        }
        return (LeaseGrant)pipeline.lease(WriteCommand.LEASE_GRANT, id, ttlSeconds, false).value;
    }

    @Override
    public CompletableFuture<LeaseGrant> grantAsync(final long id, final long ttlSeconds)
    {
        final RuntimeException refused = checkGrant(id, ttlSeconds);
        if (refused != null)
        {
            return CompletableFuture.failedFuture(refused);
        }
        return publish(WriteCommand.LEASE_GRANT, id, ttlSeconds, false, command -> (LeaseGrant)command.resultValue);
    }

    @Override
    public long keepAlive(final long id)
    {
        return (Long)pipeline.lease(WriteCommand.LEASE_KEEP_ALIVE, id, 0, false).value;
    }

    @Override
    public CompletableFuture<Long> keepAliveAsync(final long id)
    {
        return publish(WriteCommand.LEASE_KEEP_ALIVE, id, 0, false, command -> (Long)command.resultValue);
    }

    @Override
    public long revoke(final long id)
    {
        return pipeline.lease(WriteCommand.LEASE_REVOKE, id, 0, false).revision;
    }

    @Override
    public CompletableFuture<Long> revokeAsync(final long id)
    {
        return publish(WriteCommand.LEASE_REVOKE, id, 0, false, command -> command.resultRevision);
    }

    @Override
    public LeaseTimeToLive timeToLive(final long id, final boolean withKeys)
    {
        return (LeaseTimeToLive)pipeline.lease(WriteCommand.LEASE_TIME_TO_LIVE, id, 0, withKeys).value;
    }

    @Override
    public CompletableFuture<LeaseTimeToLive> timeToLiveAsync(final long id, final boolean withKeys)
    {
        return publish(WriteCommand.LEASE_TIME_TO_LIVE, id, 0, withKeys, command -> (LeaseTimeToLive)command.resultValue);
    }

    @Override
    public long[] leases()
    {
        return (long[])pipeline.lease(WriteCommand.LEASE_LIST, 0, 0, false).value;
    }

    @Override
    public CompletableFuture<long[]> leasesAsync()
    {
        return publish(WriteCommand.LEASE_LIST, 0, 0, false, command -> (long[])command.resultValue);
    }

    @Override
    public int expireDue()
    {
        int ended = 0;
        while (pipeline.lease(WriteCommand.LEASE_EXPIRE, 0, 0, false).succeeded)
        {
            ended++;
        }
        return ended;
    }

    /** @return the error for a grant the caller's thread can refuse, or null. */
    private static RuntimeException checkGrant(final long id, final long ttlSeconds)
    {
        if (ttlSeconds > MAX_TTL_SECONDS)
        {
            return new LeaseTtlException();
        }
        return null;
    }

    private <T> CompletableFuture<T> publish(
        final int kind, final long id, final long ttlSeconds, final boolean withKeys, final Function<WriteCommand, T> result)
    {
        final CompletableFuture<T> future = new CompletableFuture<>();
        pipeline.publishLease(kind, id, ttlSeconds, withKeys, new LeaseFutureCompletion<>(future, result));
        return future;
    }
}
