package io.ringwatch.engine.secondary;

import io.ringwatch.engine.errors.IndexFunctionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.function.Function;

/**
 * A user's index function (client-go's IndexFunc, without objects): derives zero or more index
 * values (a namespace, a label pair, a node name...) from a stored value's bytes.
 *
 * <p>It runs on the writer thread for every put and delete while its index exists, on
 * dispatcher threads for watch-by-index routing, and on reader threads while they repair a
 * {@code byIndex} read, so it must be thread-safe, fast, and deterministic (the same bytes give
 * the same values: the writer re-derives a key's old values to remove them). An implementation
 * that reads the buffer in place and hands slices to the sink allocates nothing.
 */
@FunctionalInterface
public interface IndexFunction
{
    /**
     * Hands every index value of {@code value} to {@code sink}. Any thread (see the type's
     * comment); must not keep the buffer or the sink after returning.
     *
     * @param value  holds the stored value; read only {@code [offset, offset + length)}.
     * @param offset where the value starts.
     * @param length the value's length in bytes.
     * @param sink   receives the index values.
     */
    void indexValues(DirectBuffer value, int offset, int length, IndexValueSink sink);

    /**
     * Adapts a convenient heap function: value bytes in, UTF-8 index values out. Allocates a
     * byte array per call and whatever {@code function} allocates; use the zero-allocation shape
     * on hot indexes.
     *
     * @param function maps a value to its index values; may return null or an empty collection
     *                 for none; must be thread-safe and deterministic.
     * @return the adapted function.
     * @throws InvalidRequestException if {@code function} is null.
     */
    static IndexFunction ofStrings(final Function<byte[], ? extends Collection<String>> function)
    {
        if (function == null)
        {
            throw new InvalidRequestException("index function must not be null");
        }
        return (value, offset, length, sink) ->
        {
            final byte[] bytes = new byte[length];
            value.getBytes(offset, bytes);
            final Collection<String> values = function.apply(bytes);
            if (values == null)
            {
                return;
            }
            for (final String indexValue : values)
            {
                if (indexValue == null)
                {
                    throw new IndexFunctionException("index function returned a null index value");
                }
                final byte[] utf8 = indexValue.getBytes(StandardCharsets.UTF_8);
                sink.accept(new UnsafeBuffer(utf8), 0, utf8.length);
            }
        };
    }
}
