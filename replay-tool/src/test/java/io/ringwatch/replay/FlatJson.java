package io.ringwatch.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser for the flat JSON objects the tool writes (string, integer, decimal, boolean,
 * null and array-of-value values), so tests read the JSON back without a library.
 */
final class FlatJson
{
    private final String text;
    private int at;

    private FlatJson(final String text)
    {
        this.text = text;
    }

    static Map<String, Object> parse(final String line)
    {
        final FlatJson parser = new FlatJson(line);
        final Map<String, Object> object = parser.object();
        if (parser.at != line.length())
        {
            throw new IllegalArgumentException("trailing text at " + parser.at + ": " + line);
        }
        return object;
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> fields = new LinkedHashMap<>();
        expect('{');
        if (peek() == '}')
        {
            at++;
            return fields;
        }
        while (true)
        {
            final String name = string();
            expect(':');
            if (fields.put(name, value()) != null)
            {
                throw new IllegalArgumentException("duplicate field " + name + ": " + text);
            }
            final char next = text.charAt(at++);
            if (next == '}')
            {
                return fields;
            }
            if (next != ',')
            {
                throw new IllegalArgumentException("expected , or } at " + (at - 1) + ": " + text);
            }
        }
    }

    private Object value()
    {
        final char c = peek();
        if (c == '"')
        {
            return string();
        }
        if (text.startsWith("null", at))
        {
            at += 4;
            return null;
        }
        if (text.startsWith("true", at))
        {
            at += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", at))
        {
            at += 5;
            return Boolean.FALSE;
        }
        if (c == '[')
        {
            return array();
        }
        final int start = at;
        while (at < text.length() && "0123456789-+.eE".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
        final String number = text.substring(start, at);
        if (number.isEmpty())
        {
            throw new IllegalArgumentException("expected a value at " + start + ": " + text);
        }
        return number.matches("-?\\d+") ? (Object)Long.parseLong(number) : (Object)Double.parseDouble(number);
    }

    private List<Object> array()
    {
        expect('[');
        final List<Object> values = new ArrayList<>();
        if (peek() == ']')
        {
            at++;
            return values;
        }
        while (true)
        {
            values.add(value());
            final char next = text.charAt(at++);
            if (next == ']')
            {
                return values;
            }
            if (next != ',')
            {
                throw new IllegalArgumentException("expected , or ] at " + (at - 1) + ": " + text);
            }
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw new IllegalArgumentException("raw control character in a string: " + text);
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char escaped = text.charAt(at++);
            switch (escaped)
            {
                case '"', '\\', '/' -> out.append(escaped);
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' ->
                {
                    out.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw new IllegalArgumentException("bad escape \\" + escaped + ": " + text);
            }
        }
    }

    private char peek()
    {
        return text.charAt(at);
    }

    private void expect(final char c)
    {
        if (text.charAt(at) != c)
        {
            throw new IllegalArgumentException("expected " + c + " at " + at + ": " + text);
        }
        at++;
    }
}
