package io.ringwatch.engine.errors;

/**
 * A put that keeps the key's current lease ({@link io.ringwatch.engine.kv.Op#withIgnoreLease()},
 * etcd's {@code ignore_lease}) found no key to keep it from, as etcd refuses it. Nothing was
 * changed. The message is etcd's ({@value #ETCD_MESSAGE}).
 */
public class KeyNotFoundException extends RingWatchException
{
    /** etcd's error text for this case ({@code rpctypes.ErrKeyNotFound}). */
    public static final String ETCD_MESSAGE = "etcdserver: key not found";

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error with etcd's message.
     */
    public KeyNotFoundException()
    {
        super(ETCD_MESSAGE);
    }
}
