package io.ringwatch.engine.internal.secondary;

/**
 * How an event looks to a watcher of one index value (Kubernetes field-selector semantics):
 * both the old and the new value match, only the old one (the key left the watcher's view: a
 * delete-like event), or only the new one (it entered: an add). Stateless.
 */
public final class IndexMatch
{
    /** Neither value matches: the watcher does not see the event. */
    public static final int NONE = -1;
    /** Old and new value match (or the event is a real delete of a matching value): as it is. */
    public static final int AS_IS = 0;
    /** Only the old value matches: a DELETE carrying the old value as its previous key-value. */
    public static final int AS_DELETE = 1;
    /** Only the new value matches: a PUT with no previous key-value (an add). */
    public static final int AS_ADD = 2;

    private IndexMatch()
    {
    }

    /**
     * @param oldMatches whether the event's previous value has the index value.
     * @param newMatches whether its new value has it.
     * @return the match mode.
     */
    public static int of(final boolean oldMatches, final boolean newMatches)
    {
        if (oldMatches)
        {
            return newMatches ? AS_IS : AS_DELETE;
        }
        return newMatches ? AS_ADD : NONE;
    }
}
