package io.ringwatch.engine.internal.secondary;

import io.ringwatch.engine.secondary.IndexFunction;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Test values shaped like tiny pods, {@code namespace|label,label|nonce}, and the two index
 * functions over them: a zero-allocation namespace index (no value for an empty namespace) and
 * a label index through the heap adapter (zero to two values).
 */
final class PodValues
{
    static final String[] NAMESPACES = {"", "a", "b", "c"};
    static final String[] LABELS = {"x", "y", "z"};

    /** Namespace: the bytes before the first '|', none when empty. Allocates nothing. */
    static final IndexFunction NAMESPACE = (value, offset, length, sink) ->
    {
        int end = offset;
        while (end < offset + length && value.getByte(end) != '|')
        {
            end++;
        }
        if (end > offset)
        {
            sink.accept(value, offset, end - offset);
        }
    };

    /** Labels: the comma-separated names between the two '|'. */
    static final IndexFunction LABEL = IndexFunction.ofStrings(value -> labelsOf(new String(value, StandardCharsets.UTF_8)));

    private PodValues()
    {
    }

    static String random(final Random random, final int nonce)
    {
        final StringBuilder labels = new StringBuilder();
        for (final String label : LABELS)
        {
            if (random.nextInt(3) == 0)
            {
                labels.append(labels.length() == 0 ? "" : ",").append(label);
            }
        }
        return NAMESPACES[random.nextInt(NAMESPACES.length)] + "|" + labels + "|" + nonce;
    }

    static List<String> namespacesOf(final String value)
    {
        final String namespace = value.substring(0, value.indexOf('|'));
        return namespace.isEmpty() ? List.of() : List.of(namespace);
    }

    static List<String> labelsOf(final String value)
    {
        final String labels = value.split("\\|", -1)[1];
        final List<String> out = new ArrayList<>();
        for (final String label : labels.split(","))
        {
            if (!label.isEmpty())
            {
                out.add(label);
            }
        }
        return out;
    }

    static String string(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
