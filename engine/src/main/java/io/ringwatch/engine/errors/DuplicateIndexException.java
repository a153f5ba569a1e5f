package io.ringwatch.engine.errors;


/**
 * A secondary index with that name already exists (or is being added). Nothing changed.
 */
public class DuplicateIndexException extends InvalidRequestException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param name the name asked for.
     */
    public DuplicateIndexException(final String name)
    {
        super("a secondary index named '" + name + "' already exists");
    }
}
