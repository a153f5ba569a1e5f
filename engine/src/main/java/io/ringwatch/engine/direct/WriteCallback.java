package io.ringwatch.engine.direct;

import io.ringwatch.engine.errors.RingWatchException;

/**
 * Receives the outcome of an asynchronous write of the zero-allocation API. Called on the
 * writer thread: it must be quick and must not block or issue a blocking write (the writer
 * would wait for itself). An exception it throws is caught and dropped.
 */
public interface WriteCallback
{
    /**
     * @param revision  the store revision after the write.
     * @param succeeded false when a conditional put's condition failed and nothing changed.
     * @param deleted   keys removed by a delete.
     */
    void onWritten(long revision, boolean succeeded, long deleted);

    /**
     * @param error why the write was not applied.
     */
    void onFailed(RingWatchException error);
}
