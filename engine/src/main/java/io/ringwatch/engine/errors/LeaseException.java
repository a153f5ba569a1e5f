package io.ringwatch.engine.errors;

/**
 * A lease operation or a put with a lease was refused because of the lease it names: it does not
 * live ({@link LeaseNotFoundException}) or its id is taken ({@link LeaseExistsException}). Nothing
 * was changed. The message is etcd's for the case.
 */
public class LeaseException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long leaseId;

    /**
     * @param message etcd's message for the case.
     * @param leaseId the lease named.
     */
    public LeaseException(final String message, final long leaseId)
    {
        super(message);
        this.leaseId = leaseId;
    }

    /**
     * @return the id of the lease the request named.
     */
    public long leaseId()
    {
        return leaseId;
    }
}
