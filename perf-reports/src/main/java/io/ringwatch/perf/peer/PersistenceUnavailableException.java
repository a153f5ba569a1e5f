package io.ringwatch.perf.peer;

import java.util.Locale;

/**
 * Thrown when a run asks for persistence this build of the engine does not have.
 */
public final class PersistenceUnavailableException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param asked the durability asked for.
     */
    public PersistenceUnavailableException(final Persistence asked)
    {
        super("persistence not available in this build (--persistence " + asked.name().toLowerCase(Locale.ROOT) +
            "); use --persistence none");
    }
}
