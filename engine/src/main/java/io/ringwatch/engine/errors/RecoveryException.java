package io.ringwatch.engine.errors;

/**
 * Opening a persistent engine found that its snapshot and revision log do not form one history
 * (the log misses revisions the snapshot needs, ends before what it reports, or the snapshot
 * holds a change newer than the last revision the log recovers), so the engine refuses to start
 * rather than serve a state no revision ever had. Nothing was written; the files are as they were,
 * for the replay tool's {@code verify} and an operator to inspect.
 */
public final class RecoveryException extends RingWatchException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what does not fit, with the revisions involved.
     */
    public RecoveryException(final String message)
    {
        super(message);
    }
}
