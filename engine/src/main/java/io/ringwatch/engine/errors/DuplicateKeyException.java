package io.ringwatch.engine.errors;

/**
 * A transaction that could write one key twice in one revision: two puts of the key, or a put of
 * a key that a delete's range holds, on paths its conditions could choose together (etcd's
 * "duplicate key given in txn request"). Nothing was changed. Thrown on the caller's thread.
 */
public class DuplicateKeyException extends InvalidRequestException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which operation repeats which key.
     */
    public DuplicateKeyException(final String message)
    {
        super(message);
    }
}
