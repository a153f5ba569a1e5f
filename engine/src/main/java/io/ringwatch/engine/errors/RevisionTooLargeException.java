package io.ringwatch.engine.errors;

/**
 * A write would make one revision larger than the revision log accepts (its per-revision cap,
 * {@link io.ringwatch.engine.spi.Journal#maxRevisionBytes()}; {@code LogConfig.maxRevisionBytes()} for the
 * Chronicle Queue log): a transaction whose changes
 * together, or a range delete whose deleted key-values together, encode to more than the cap,
 * although each value is within the value limit. The writer measures a revision completely before
 * it changes anything, so nothing was changed (index, window, secondary indexes, log, revision)
 * and later writes go on as before. Split the write into smaller ones.
 */
public final class RevisionTooLargeException extends InvalidRequestException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param encodedBytes what the revision would encode to.
     * @param maxBytes     the log's per-revision cap.
     */
    public RevisionTooLargeException(final long encodedBytes, final long maxBytes)
    {
        super("the write would make a revision of " + encodedBytes + " bytes in the revision log, over its cap of " +
            maxBytes + " bytes; nothing was changed: split it into smaller writes");
    }
}
