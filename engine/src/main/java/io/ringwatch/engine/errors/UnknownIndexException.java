package io.ringwatch.engine.errors;


/**
 * No secondary index has the name given (never added, or removed). Nothing changed.
 */
public class UnknownIndexException extends InvalidRequestException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param name the name asked for.
     */
    public UnknownIndexException(final String name)
    {
        super("no secondary index named '" + name + "'");
    }
}
