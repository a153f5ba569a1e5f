package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.secondary.IndexFunction;
import io.ringwatch.engine.secondary.IndexValueSink;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;

/**
 * A reusable, de-duplicated list of the index values one function derived from one value: the
 * sink the engine hands to {@link IndexFunction}s. One thread at a time (the writer, a
 * dispatcher, a reader each own theirs). Allocates only while its buffers grow to the largest
 * set of values seen.
 */
public final class IndexValues implements IndexValueSink
{
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(64);
    private final IntArrayList starts = new IntArrayList();
    private int used;

    /**
     * Replaces the content with the index values {@code function} derives from a value. Calling
     * thread; allocates only what growth and the function need.
     *
     * @param indexName names the index in the error message.
     * @param function  the index function.
     * @param value     holds the value.
     * @param offset    where it starts.
     * @param length    its length.
     * @return this.
     * @throws IndexFunctionException if the function throws (an {@link Error} included) or yields an unusable value.
     */
    public IndexValues collect(
        final String indexName, final IndexFunction function, final DirectBuffer value, final int offset, final int length)
    {
        clear();
        try
        {
            function.indexValues(value, offset, length, this);
        }
        catch (final IndexFunctionException e)
        {
            clear();
            throw new IndexFunctionException("index '" + indexName + "': " + e.getMessage(), e);
        }
        catch (final RuntimeException | Error e)
        {
            // An Error too (a failed assertion, a class that would not load): it is the user's
            // function failing, and the writer that called it must go on.
            clear();
            throw new IndexFunctionException("index '" + indexName + "': the index function threw " + e, e);
        }
        return this;
    }

    /** Collects the index values of an event's previous value (none when it has none). */
    IndexValues collectPrevious(final String indexName, final IndexFunction function, final EventRecord record)
    {
        if (!record.hasPrev())
        {
            clear();
            return this;
        }
        return collect(indexName, function, record.prevValue(), 0, record.prevValueLength());
    }

    /** Collects the index values of an event's new value (none for a delete). */
    IndexValues collectCurrent(final String indexName, final IndexFunction function, final EventRecord record)
    {
        if (record.type() != EventType.PUT)
        {
            clear();
            return this;
        }
        return collect(indexName, function, record.value(), 0, record.valueLength());
    }

    @Override
    public void accept(final DirectBuffer buffer, final int offset, final int length)
    {
        if (buffer == null || length < 0 || length > MAX_VALUE_BYTES || offset < 0 || offset > buffer.capacity() - length)
        {
            throw new IndexFunctionException("index value of " + length + " bytes at " + offset +
                " is null, outside its buffer or longer than " + MAX_VALUE_BYTES + " bytes");
        }
        if (contains(buffer, offset, length))
        {
            return;
        }
        starts.addInt(used);
        bytes.putBytes(used, buffer, offset, length);
        used += length;
    }

    /**
     * Empties the list. Owner thread; no allocation.
     */
    public void clear()
    {
        starts.clear();
        used = 0;
    }

    /**
     * @return the number of distinct values held.
     */
    public int size()
    {
        return starts.size();
    }

    /**
     * @return the buffer holding every value; see {@link #offset(int)} and {@link #length(int)}.
     */
    public DirectBuffer buffer()
    {
        return bytes;
    }

    /**
     * @param i which value, 0 to {@link #size()} - 1.
     * @return where it starts in {@link #buffer()}.
     */
    public int offset(final int i)
    {
        return starts.getInt(i);
    }

    /**
     * @param i which value, 0 to {@link #size()} - 1.
     * @return its length in bytes.
     */
    public int length(final int i)
    {
        return (i + 1 < starts.size() ? starts.getInt(i + 1) : used) - starts.getInt(i);
    }

    /**
     * @param buffer holds the value to look for.
     * @param offset where it starts.
     * @param length its length.
     * @return whether this list holds it. Owner thread; O(size); no allocation.
     */
    public boolean contains(final DirectBuffer buffer, final int offset, final int length)
    {
        for (int i = 0, size = starts.size(); i < size; i++)
        {
            if (length(i) == length && sameBytes(bytes, starts.getInt(i), buffer, offset, length))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param other another list.
     * @param i     which of the other list's values.
     * @return whether this list holds it too.
     */
    public boolean containsValueOf(final IndexValues other, final int i)
    {
        return contains(other.bytes, other.offset(i), other.length(i));
    }

    static boolean sameBytes(
        final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
            {
                return false;
            }
        }
        return true;
    }
}
