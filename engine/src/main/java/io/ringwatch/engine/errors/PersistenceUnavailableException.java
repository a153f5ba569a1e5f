package io.ringwatch.engine.errors;

/**
 * An engine was configured for persistence by directory
 * ({@code RingWatchConfig.Builder.persistence(Path)}) but no persistence implementation is on the
 * class path: the engine itself holds none. Add the {@value #ARTIFACT} artifact (same version as
 * the engine); nothing was configured or opened.
 */
public class PersistenceUnavailableException extends RingWatchException
{
    /** The Maven coordinates of the persistence implementation to add. */
    public static final String ARTIFACT = "io.ringwatch:ringwatch-persistence";

    private static final long serialVersionUID = 1L;

    /**
     * @param directory the directory the configuration asked for, for the message.
     */
    public PersistenceUnavailableException(final String directory)
    {
        super("persistence in " + directory + " needs a persistence implementation on the class path, " +
            "and the engine holds none: add the dependency " + ARTIFACT + " (the same version as ringwatch-engine)");
    }
}
