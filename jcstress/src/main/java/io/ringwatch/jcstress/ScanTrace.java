package io.ringwatch.jcstress;

import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.IndexVisitor;
import org.agrona.DirectBuffer;

/**
 * Records the keys an {@link io.ringwatch.engine.internal.index.OffHeapIndex} scan visits as a {@link DigitTrace}: the
 * digit of each known key whose entry is consistent ({@link IndexValues#holds}), {@link IndexValues#WRONG}
 * for anything else, so "13" reads "a then c".
 * <p>
 * One scanning thread at a time; allocates nothing.
 */
final class ScanTrace implements IndexVisitor
{
    private final DirectBuffer[] keys;
    private final long[] createRevisions;
    private final long[] lastRevisions;
    private int trace;

    /**
     * @param keys            the known keys; key {@code i} gets digit {@code i + 1}.
     * @param createRevisions each key's create revision.
     * @param lastRevisions   each key's last possible modRevision.
     */
    ScanTrace(final DirectBuffer[] keys, final long[] createRevisions, final long[] lastRevisions)
    {
        this.keys = keys;
        this.createRevisions = createRevisions;
        this.lastRevisions = lastRevisions;
    }

    /**
     * Clears the trace before a scan.
     */
    void reset()
    {
        trace = 0;
    }

    /**
     * The digits of the keys visited since {@link #reset()}.
     *
     * @return the trace; 0 if none.
     */
    int trace()
    {
        return trace;
    }

    /**
     * Appends the visited key's digit. The scanning thread.
     *
     * @param entry the visited entry.
     * @return true: always continue.
     */
    @Override
    public boolean visit(final IndexEntry entry)
    {
        int digit = IndexValues.WRONG;
        for (int i = 0; i < keys.length; i++)
        {
            if (IndexValues.holds(entry, keys[i], createRevisions[i], lastRevisions[i]))
            {
                digit = i + 1;
                break;
            }
        }
        trace = DigitTrace.append(trace, digit, keys.length);
        return true;
    }
}
