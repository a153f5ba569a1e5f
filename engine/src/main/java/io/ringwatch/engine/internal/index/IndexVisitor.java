package io.ringwatch.engine.internal.index;

/**
 * Receives the entries of an {@link OffHeapIndex#scan}, in ascending key order, on the scanning
 * thread.
 */
@FunctionalInterface
public interface IndexVisitor
{
    /**
     * Called once per visited entry. The entry is reused for the next one: copy what must
     * outlive the call, and do not modify it.
     *
     * @param entry the current entry, found and consistent.
     * @return true to continue the scan, false to stop it.
     */
    boolean visit(IndexEntry entry);
}
