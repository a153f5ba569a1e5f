package io.ringwatch.engine.kv;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A read-only list of key-values that its builder hands over and never changes again, so that a
 * {@link RangeResult} keeps it as it is instead of copying it: the engine's range readers return
 * a million-key result as a few packed byte arrays this way, and materialize a {@link KeyValue}
 * only when {@link #get(int)} asks for it. Every mutator throws
 * {@link UnsupportedOperationException}, as {@link AbstractList}'s do.
 *
 * <p>Subclasses must be immutable and thread-safe once built.
 */
public abstract class HandedOverKeyValues extends AbstractList<KeyValue> implements RandomAccess
{
    /** For subclasses. */
    protected HandedOverKeyValues()
    {
    }
}
