package io.ringwatch.replay;

import java.util.Base64;
import java.util.List;

/**
 * Builds one flat JSON object on one line (JSON Lines). Byte fields are UTF-8 strings when valid,
 * else base64 with a {@code <name>Base64: true} flag beside them. One thread; allocates its builder.
 */
final class JsonLine
{
    private final StringBuilder out = new StringBuilder(160).append('{');
    private boolean empty = true;

    /**
     * Adds a number field.
     *
     * @param name  the field name.
     * @param value the number.
     * @return this line.
     */
    JsonLine number(final String name, final long value)
    {
        name(name).append(value);
        return this;
    }

    /**
     * Adds a decimal number field, rounded to three decimals (JSON has no NaN: non-finite is null).
     *
     * @param name  the field name.
     * @param value the number.
     * @return this line.
     */
    JsonLine decimal(final String name, final double value)
    {
        final StringBuilder at = name(name);
        if (Double.isFinite(value))
        {
            at.append(Math.round(value * 1000.0) / 1000.0);
        }
        else
        {
            at.append("null");
        }
        return this;
    }

    /**
     * Adds a boolean field.
     *
     * @param name  the field name.
     * @param value the flag.
     * @return this line.
     */
    JsonLine flag(final String name, final boolean value)
    {
        name(name).append(value);
        return this;
    }

    /**
     * Adds an array of numbers.
     *
     * @param name   the field name.
     * @param values the numbers, in order.
     * @return this line.
     */
    JsonLine numbers(final String name, final List<Long> values)
    {
        final StringBuilder at = name(name).append('[');
        for (int i = 0; i < values.size(); i++)
        {
            if (i > 0)
            {
                at.append(',');
            }
            at.append(values.get(i).longValue());
        }
        at.append(']');
        return this;
    }

    /**
     * Adds a string field.
     *
     * @param name  the field name.
     * @param value the text, or null for JSON null.
     * @return this line.
     */
    JsonLine string(final String name, final String value)
    {
        final StringBuilder at = name(name);
        if (value == null)
        {
            at.append("null");
        }
        else
        {
            quote(at, value);
        }
        return this;
    }

    /**
     * Adds a byte field: a UTF-8 string, or base64 with a flag field {@code name + "Base64"}.
     *
     * @param name  the field name.
     * @param bytes the bytes, or null for JSON null.
     * @return this line.
     */
    JsonLine bytes(final String name, final byte[] bytes)
    {
        if (bytes == null)
        {
            return string(name, null);
        }
        final String text = ByteText.utf8(bytes);
        if (text != null)
        {
            return string(name, text);
        }
        string(name, Base64.getEncoder().encodeToString(bytes));
        name(name + "Base64").append("true");
        return this;
    }

    /**
     * Closes the object.
     *
     * @return the JSON text, without a line end.
     */
    String end()
    {
        return out.append('}').toString();
    }

    private StringBuilder name(final String name)
    {
        if (!empty)
        {
            out.append(',');
        }
        empty = false;
        quote(out, name);
        return out.append(':');
    }

    /**
     * Appends {@code text} as a JSON string literal (RFC 8259 escapes).
     */
    private static void quote(final StringBuilder out, final String text)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
