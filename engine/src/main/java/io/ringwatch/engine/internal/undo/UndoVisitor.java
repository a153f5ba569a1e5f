package io.ringwatch.engine.internal.undo;

import org.agrona.DirectBuffer;

/**
 * Receives the pre-images a pinned read needs, oldest first: for each change after the pinned
 * revision (that the writer kept), the key's state just before it.
 */
@FunctionalInterface
public interface UndoVisitor
{
    /**
     * @param buffer         holds the key and the previous value; valid during the call only.
     * @param keyOffset      where the key starts.
     * @param keyLength      the key's length.
     * @param valueOffset    where the previous value starts.
     * @param valueLength    the previous value's length, or -1 when the key was absent before
     *                       the change (then the revisions are 0).
     * @param createRevision the key's createRevision before the change.
     * @param modRevision    the key's modRevision before the change.
     * @param version        the key's version before the change.
     * @param lease          the key's lease id before the change, 0 for none.
     */
    void visit(
        DirectBuffer buffer, int keyOffset, int keyLength, int valueOffset, int valueLength,
        long createRevision, long modRevision, long version, long lease);
}
