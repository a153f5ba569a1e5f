package io.ringwatch.engine.errors;

/**
 * A grant asked for a lease id that a live lease already has (etcd's LeaseGrant with an
 * {@code ID} in use). Nothing was changed. The message is etcd's ({@value #ETCD_MESSAGE}).
 */
public class LeaseExistsException extends LeaseException
{
    /** etcd's error text for this case ({@code rpctypes.ErrLeaseExist}). */
    public static final String ETCD_MESSAGE = "etcdserver: lease already exists";

    private static final long serialVersionUID = 1L;

    /**
     * @param leaseId the id already in use.
     */
    public LeaseExistsException(final long leaseId)
    {
        super(ETCD_MESSAGE, leaseId);
    }
}
