package io.ringwatch.engine.errors;

/**
 * A grant asked for a TTL above the largest the engine takes
 * ({@link io.ringwatch.engine.lease.Leases#MAX_TTL_SECONDS}, etcd's {@code MaxLeaseTTL}). A TTL
 * below the minimum is not an error: it is raised to the minimum, as etcd does. Nothing was
 * changed. Thrown on the caller's thread. The message is etcd's ({@value #ETCD_MESSAGE}).
 */
public class LeaseTtlException extends InvalidRequestException
{
    /** etcd's error text for this case ({@code rpctypes.ErrLeaseTTLTooLarge}). */
    public static final String ETCD_MESSAGE = "etcdserver: too large lease TTL";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error with etcd's message.
     */
    public LeaseTtlException()
    {
        super(ETCD_MESSAGE);
    }
}
