package io.ringwatch.engine.errors;

import java.util.List;

/**
 * The JVM lacks flags the engine needs: without them Agrona or Chronicle Queue would fail later,
 * deep inside a write, with an {@code IllegalAccessError} or an {@code AssertionError}, or the JVM
 * would print warnings on the application's stderr. The message lists the exact flags for this
 * JDK; add them to the {@code java} command line (see {@link io.ringwatch.engine.JvmFlags}).
 */
public class MissingJvmFlagsException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final List<String> missing;
    private final List<String> required;

    /**
     * @param what     what was being started ("an in-memory engine", "a persistent engine").
     * @param missing  the flags that are absent.
     * @param required every flag this use needs on this JDK.
     */
    public MissingJvmFlagsException(final String what, final List<String> missing, final List<String> required)
    {
        super("the JVM lacks flags that " + what + " needs on JDK " + Runtime.version().feature() + ": " +
            String.join(" ", missing) + "; start java with all of: " + String.join(" ", required));
        this.missing = List.copyOf(missing);
        this.required = List.copyOf(required);
    }

    /**
     * @return the flags that are absent, in command-line form.
     */
    public List<String> missingFlags()
    {
        return missing;
    }

    /**
     * @return every flag the engine needs for this use on this JDK, in command-line form.
     */
    public List<String> requiredFlags()
    {
        return required;
    }
}
