package io.ringwatch.engine.internal.history;

/**
 * How far the writer and the journal have got, as a background reader of the live index (the
 * snapshotter) needs to know it: the index runs ahead of the journal, since the writer applies a
 * revision before the journal stage records it. Implemented by the engine's revision cursor.
 * Any thread; nothing allocates.
 */
public interface WriterProgress
{
    /**
     * @return the newest revision the journal holds as its mode promises (appended in ASYNC mode,
     * forced to disk in SYNC mode); every revision up to it is in the index too.
     */
    long durable();

    /**
     * @return the newest revision the writer has started to apply: read after a scan of the index,
     * an upper bound of the revision of every change the scan saw.
     */
    long applying();

    /**
     * @return a stamp to take before reading the index and check with {@link #isStable(long)}
     * afterwards: it changes when a journal failure rolls the index back. Waits while a roll-back
     * runs.
     */
    long readStamp();

    /**
     * @param stamp what {@link #readStamp()} returned before the read.
     * @return true when no roll-back ran since, so what the read saw stands.
     */
    boolean isStable(long stamp);
}
