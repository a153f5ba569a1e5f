package io.ringwatch.engine.internal.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The whole state of an index as text, one line per key in key order (key, value, create and mod
 * revision, version, lease), for tests that compare two indexes.
 */
public final class IndexDump
{
    private IndexDump()
    {
    }

    /**
     * @param index the index to read; no writer may change it meanwhile.
     * @return one line per key, ascending.
     */
    public static List<String> dump(final OffHeapIndex index)
    {
        final List<String> lines = new ArrayList<>();
        index.scan(null, 0, 0, null, 0, 0, 0, e ->
        {
            lines.add(Arrays.toString(e.keyBytes()) + '=' + Arrays.toString(e.valueBytes()) + ' ' + e.createRevision() + ' ' +
                e.modRevision() + ' ' + e.version() + ' ' + e.lease());
            return true;
        });
        return lines;
    }
}
