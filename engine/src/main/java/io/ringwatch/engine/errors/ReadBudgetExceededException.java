package io.ringwatch.engine.errors;

/**
 * A consistent read needed more pre-images than the undo budget holds
 * ({@link io.ringwatch.engine.config.RingWatchConfig#consistentReadBudgetBytes()}): the writer, which never waits for a
 * reader, dropped what this read needed and went on. Reading again usually succeeds; a read that
 * keeps failing needs a larger budget or a smaller range.
 */
public final class ReadBudgetExceededException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    private final long budgetBytes;

    /**
     * @param budgetBytes the budget that was exceeded.
     */
    public ReadBudgetExceededException(final long budgetBytes)
    {
        super("a consistent read needed more than the undo budget of " + budgetBytes + " bytes " +
            "(RingWatchConfig.consistentReadBudgetBytes) while the writer went on; read again, or raise the budget");
        this.budgetBytes = budgetBytes;
    }

    /**
     * @return the budget, in bytes.
     */
    public long budgetBytes()
    {
        return budgetBytes;
    }
}
