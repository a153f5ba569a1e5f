package io.ringwatch.persistence;

/**
 * The kinds of change a revision holds, as stored in the log. Constants only; no allocation.
 */
public final class ChangeType
{
    /**
     * A key was created or updated; the change carries the new value and post-state metadata.
     */
    public static final byte PUT = 1;

    /**
     * A key was deleted; the change carries no value and zero post-state metadata.
     */
    public static final byte DELETE = 2;

    private ChangeType()
    {
    }

    /**
     * Whether {@code type} is a change type this log stores. Any thread; no allocation.
     *
     * @param type the stored or proposed type byte.
     * @return true for {@link #PUT} and {@link #DELETE}.
     */
    public static boolean isValid(final byte type)
    {
        return type == PUT || type == DELETE;
    }
}
