package io.ringwatch.ringbuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Left padding of {@link PaddedSequence}. The JVM lays out superclass fields before subclass
 * fields, so these 15 longs (120 bytes) sit between the object header and {@code value}.
 */
abstract class PaddedSequenceLeftPadding
{
    protected long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * The counter itself, between the two paddings.
 */
abstract class PaddedSequenceValue extends PaddedSequenceLeftPadding
{
    protected long value;
}

/**
 * Right padding of {@link PaddedSequence}: 120 bytes after {@code value}.
 */
abstract class PaddedSequenceRightPadding extends PaddedSequenceValue
{
    protected long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/**
 * A {@code long} counter padded against false sharing, in the manner of the Disruptor's
 * {@code Sequence}: the writer of a hot counter must not invalidate the cache line of a
 * neighbouring object that other cores read.
 * <p>
 * Padding: 120 bytes of unused longs on each side of the value. A cache line is 64 bytes, and
 * Intel's adjacent-line prefetcher pulls lines in pairs, so 128 bytes either side (header
 * included) keeps any other object's fields off the two lines that hold the value.
 * <p>
 * Threading: any thread may call any method; the memory-ordering mode of each method is stated
 * on it. Allocation: none after construction.
 */
public final class PaddedSequence extends PaddedSequenceRightPadding
{
    private static final VarHandle VALUE;

    static
    {
        try
        {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedSequenceValue.class, "value", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Creates a sequence holding {@code initialValue}. Any thread; allocates this object only.
     *
     * @param initialValue the value readers see first.
     */
    public PaddedSequence(final long initialValue)
    {
        VALUE.setRelease(this, initialValue);
    }

    /**
     * Reads the value with acquire semantics: writes made before the matching {@link #set(long)}
     * are visible after this read. Any thread; no allocation.
     *
     * @return the current value.
     */
    public long get()
    {
        return (long)VALUE.getAcquire(this);
    }

    /**
     * Reads the value with volatile (sequentially consistent) semantics. Any thread; no allocation.
     *
     * @return the current value.
     */
    public long getVolatile()
    {
        return (long)VALUE.getVolatile(this);
    }

    /**
     * Reads the value with no ordering guarantee; for the owning writer re-reading its own value.
     * Any thread; no allocation.
     *
     * @return the current value as seen by this thread.
     */
    public long getPlain()
    {
        return value;
    }

    /**
     * Stores the value with release semantics: writes made before it are visible to a thread that
     * reads this value with {@link #get()}. Cheap (no StoreLoad fence). Any thread; no allocation.
     *
     * @param newValue the value to publish.
     */
    public void set(final long newValue)
    {
        VALUE.setRelease(this, newValue);
    }

    /**
     * Stores the value with volatile semantics (a full fence after the store). Any thread; no
     * allocation.
     *
     * @param newValue the value to publish.
     */
    public void setVolatile(final long newValue)
    {
        VALUE.setVolatile(this, newValue);
    }

    /**
     * Atomically replaces the value if it equals {@code expectedValue}. Any thread; no allocation.
     *
     * @param expectedValue the value the caller believes is current.
     * @param newValue      the value to store.
     * @return true if the value was replaced.
     */
    public boolean compareAndSet(final long expectedValue, final long newValue)
    {
        return VALUE.compareAndSet(this, expectedValue, newValue);
    }

    /**
     * Returns the value in decimal (volatile read). Any thread; allocates the string.
     *
     * @return the value as a string.
     */
    @Override
    public String toString()
    {
        return Long.toString(getVolatile());
    }
}
