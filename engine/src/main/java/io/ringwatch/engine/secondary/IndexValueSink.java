package io.ringwatch.engine.secondary;

import org.agrona.DirectBuffer;

/**
 * Receives the index values an {@link IndexFunction} derives from one value. The bytes are
 * copied before {@code accept} returns, so a function may reuse its buffer for the next value.
 * Called only from inside {@link IndexFunction#indexValues}, on that call's thread.
 */
@FunctionalInterface
public interface IndexValueSink
{
    /** The longest index value accepted, in bytes. */
    int MAX_VALUE_BYTES = 4096;

    /**
     * Adds one index value; a value given twice for the same input counts once. Allocates only
     * while the collector's buffers grow to the largest set of values seen.
     *
     * @param buffer holds the index value.
     * @param offset where it starts.
     * @param length its length in bytes, 0 to {@link #MAX_VALUE_BYTES}.
     * @throws io.ringwatch.engine.errors.IndexFunctionException if the value is longer than the limit or out of the buffer.
     */
    void accept(DirectBuffer buffer, int offset, int length);
}
