package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.LeaseTtlException;
import io.ringwatch.engine.lease.LeaseGrant;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.engine.lease.Leases;

import java.util.concurrent.CompletableFuture;

/**
 * {@link Leases} over the write ring: validates on the caller's thread, then hands each operation
 * to the writer as a command stamped with the lease clock's time and waits for it. The writer's
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
        if (id < 0)
        {
            throw new InvalidRequestException("lease id must not be negative: " + id);
        }
        if (ttlSeconds > MAX_TTL_SECONDS)
        {
            throw new LeaseTtlException();
        }
        return (LeaseGrant)pipeline.lease(WriteCommand.LEASE_GRANT, id, ttlSeconds, false).value;
    }

    @Override
    public long keepAlive(final long id)
    {
        return (Long)pipeline.lease(WriteCommand.LEASE_KEEP_ALIVE, id, 0, false).value;
    }

    @Override
    public CompletableFuture<Long> keepAliveAsync(final long id)
    {
        final CompletableFuture<Long> future = new CompletableFuture<>();
        pipeline.publishLease(WriteCommand.LEASE_KEEP_ALIVE, id, 0, false, new LeaseFutureCompletion(future));
        return future;
    }

    @Override
    public long revoke(final long id)
    {
        return pipeline.lease(WriteCommand.LEASE_REVOKE, id, 0, false).revision;
    }

    @Override
    public LeaseTimeToLive timeToLive(final long id, final boolean withKeys)
    {
        return (LeaseTimeToLive)pipeline.lease(WriteCommand.LEASE_TIME_TO_LIVE, id, 0, withKeys).value;
    }

    @Override
    public long[] leases()
    {
        return (long[])pipeline.lease(WriteCommand.LEASE_LIST, 0, 0, false).value;
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
}
