package io.ringwatch.engine.errors;

/**
 * A lease operation, or a put that attaches a key to a lease, named a lease the engine does not
 * hold: never granted, revoked, or expired and revoked by the writer. Nothing was changed. The
 * message is etcd's ({@value #ETCD_MESSAGE}), so that an etcd-compatible server can hand it on as
 * it is.
 */
public class LeaseNotFoundException extends LeaseException
{
    /** etcd's error text for this case ({@code rpctypes.ErrLeaseNotFound}). */
    public static final String ETCD_MESSAGE = "etcdserver: requested lease not found";

    private static final long serialVersionUID = 1L;

    /**
     * @param leaseId the lease that was not found.
     */
    public LeaseNotFoundException(final long leaseId)
    {
        super(ETCD_MESSAGE, leaseId);
    }
}
