package io.ringwatch.server.rpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.DuplicateKeyException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.HistoryLostException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.KeyNotFoundException;
import io.ringwatch.engine.errors.LeaseExistsException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.errors.LeaseTtlException;
import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.errors.RevisionTooLargeException;

/**
 * The gRPC errors an etcd server answers with, with etcd's exact codes and messages
 * (api/v3rpc/rpctypes/error.go): etcd clients map an error to an exception by its message, so
 * these strings are protocol, not prose. Also maps the engine's typed exceptions to them.
 * Stateless and thread-safe; each call allocates the exception it returns.
 */
public final class EtcdErrors
{
    /** The message etcd gives a compacted revision, also a watch's cancel reason. */
    public static final String COMPACTED_MESSAGE = "etcdserver: mvcc: required revision has been compacted";
    /** The cancel reason of a watch whose id is already in use on its stream. */
    public static final String DUPLICATE_WATCH_ID = "mvcc: duplicate watch ID provided on the WatchStream";
    /** The cancel reason of a watch whose range end sorts at or before its key. */
    public static final String EMPTY_WATCHER_RANGE = "mvcc: watcher range is empty";

    private EtcdErrors()
    {
    }

    /**
     * @return etcd's ErrGRPCStopped: UNAVAILABLE, which clients retry, for the calls and streams a
     *         stopping server ends.
     */
    public static StatusRuntimeException serverStopped()
    {
        return error(Status.UNAVAILABLE, "etcdserver: server stopped");
    }

    /**
     * @return etcd's ErrGRPCEmptyKey.
     */
    public static StatusRuntimeException emptyKey()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: key is not provided");
    }

    /**
     * @return etcd's ErrGRPCKeyNotFound (ignore_value or ignore_lease on an absent key).
     */
    public static StatusRuntimeException keyNotFound()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: key not found");
    }

    /**
     * @return etcd's ErrGRPCValueProvided.
     */
    public static StatusRuntimeException valueProvided()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: value is provided");
    }

    /**
     * @return etcd's ErrGRPCLeaseProvided.
     */
    public static StatusRuntimeException leaseProvided()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: lease is provided");
    }

    /**
     * @return etcd's ErrGRPCTooManyOps.
     */
    public static StatusRuntimeException tooManyOps()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: too many operations in txn request");
    }

    /**
     * @return etcd's ErrGRPCDuplicateKey.
     */
    public static StatusRuntimeException duplicateKey()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: duplicate key given in txn request");
    }

    /**
     * @return etcd's ErrGRPCInvalidSortOption.
     */
    public static StatusRuntimeException invalidSortOption()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: invalid sort option");
    }

    /**
     * @return etcd's ErrGRPCCompacted.
     */
    public static StatusRuntimeException compacted()
    {
        return error(Status.OUT_OF_RANGE, COMPACTED_MESSAGE);
    }

    /**
     * @return etcd's ErrGRPCFutureRev.
     */
    public static StatusRuntimeException futureRevision()
    {
        return error(Status.OUT_OF_RANGE, "etcdserver: mvcc: required revision is a future revision");
    }

    /**
     * @return etcd's ErrGRPCLeaseNotFound.
     */
    public static StatusRuntimeException leaseNotFound()
    {
        return error(Status.NOT_FOUND, LeaseNotFoundException.ETCD_MESSAGE);
    }

    /**
     * @return etcd's ErrGRPCLeaseExist (a grant naming the id of a live lease).
     */
    public static StatusRuntimeException leaseExists()
    {
        return error(Status.FAILED_PRECONDITION, LeaseExistsException.ETCD_MESSAGE);
    }

    /**
     * @return etcd's ErrGRPCLeaseTTLTooLarge.
     */
    public static StatusRuntimeException leaseTtlTooLarge()
    {
        return error(Status.OUT_OF_RANGE, LeaseTtlException.ETCD_MESSAGE);
    }

    /**
     * @return etcd's ErrGRPCRequestTooLarge.
     */
    public static StatusRuntimeException requestTooLarge()
    {
        return error(Status.INVALID_ARGUMENT, "etcdserver: request is too large");
    }

    /**
     * A request etcd would serve that this server does not (yet): UNIMPLEMENTED, saying what.
     *
     * @param what the feature missing.
     * @return the error.
     */
    public static StatusRuntimeException unsupported(final String what)
    {
        return error(Status.UNIMPLEMENTED, "ringwatch: " + what + " is not supported");
    }

    /**
     * Maps an exception the engine threw to the error etcd would answer: compaction, future
     * revisions, leases (not found, exists, TTL too large) and absent keys to etcd's messages, bad
     * arguments to INVALID_ARGUMENT, history lost from the middle of the log to DATA_LOSS, a closed
     * engine to UNAVAILABLE, anything else to INTERNAL (its message kept, for the operator).
     *
     * @param e what the engine threw.
     * @return the gRPC error to send.
     */
    public static StatusRuntimeException fromEngine(final RuntimeException e)
    {
        if (e instanceof StatusRuntimeException)
        {
            return (StatusRuntimeException)e;
        }
        if (e instanceof CompactedException)
        {
            return compacted();
        }
        if (e instanceof FutureRevisionException)
        {
            return futureRevision();
        }
        if (e instanceof RevisionTooLargeException)
        {
            return requestTooLarge();
        }
        if (e instanceof DuplicateKeyException)
        {
            return duplicateKey();
        }
        if (e instanceof LeaseNotFoundException)
        {
            return leaseNotFound();
        }
        if (e instanceof LeaseExistsException)
        {
            return leaseExists();
        }
        if (e instanceof LeaseTtlException)
        {
            return leaseTtlTooLarge();
        }
        if (e instanceof KeyNotFoundException)
        {
            return keyNotFound();
        }
        if (e instanceof InvalidRequestException)
        {
            return error(Status.INVALID_ARGUMENT, "etcdserver: " + e.getMessage());
        }
        if (e instanceof HistoryLostException)
        {
            // etcd has no such state (it will not start on a WAL with a hole); DATA_LOSS says what it is.
            return error(Status.DATA_LOSS, "etcdserver: " + e.getMessage());
        }
        if (e instanceof ReadBudgetExceededException)
        {
            return error(Status.RESOURCE_EXHAUSTED, "etcdserver: " + e.getMessage());
        }
        if (e instanceof EngineClosedException)
        {
            return serverStopped();
        }
        return Status.INTERNAL.withDescription("etcdserver: " + e.getMessage()).withCause(e).asRuntimeException();
    }

    private static StatusRuntimeException error(final Status status, final String message)
    {
        return status.withDescription(message).asRuntimeException();
    }
}
