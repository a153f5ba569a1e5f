package io.ringwatch.engine.internal.index;

import org.agrona.ExpandableArrayBuffer;

/**
 * A reader's position in the skip list: the node it stands on with the version it validated, and
 * the last key it visited, from which a scan resumes when a node changes under it,
 * and whether a scan is using it now. Owned by one
 * {@link IndexEntry}, so one reader thread at a time; allocates only when the key buffer grows.
 */
final class ScanCursor
{
    final ExpandableArrayBuffer lastKey = new ExpandableArrayBuffer(64);
    int lastKeyLength = -1;
    int node;
    int version;
    boolean busy;
}
