package io.ringwatch.replay;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * How the tool shows key and value bytes: UTF-8 text when the bytes are valid UTF-8, otherwise hex
 * (text output) or base64 (JSON output). Stateless; any thread; allocates the strings it returns.
 */
final class ByteText
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ByteText()
    {
    }

    /**
     * Decodes strictly as UTF-8.
     *
     * @param bytes the bytes.
     * @return the text, or null when the bytes are not valid UTF-8.
     */
    static String utf8(final byte[] bytes)
    {
        if (isAscii(bytes))
        {
            // Most keys and values are ASCII: valid UTF-8 by definition, no decoder needed.
            return new String(bytes, StandardCharsets.US_ASCII);
        }
        try
        {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        }
        catch (final CharacterCodingException ex)
        {
            return null;
        }
    }

    /**
     * For text output: the bytes in double quotes when they are printable UTF-8 (quotes and
     * backslashes escaped), else {@code 0x} and lower-case hex.
     *
     * @param bytes the bytes.
     * @return the rendering.
     */
    static String printable(final byte[] bytes)
    {
        if (isPrintableAscii(bytes))
        {
            final StringBuilder out = new StringBuilder(bytes.length + 8).append('"');
            for (final byte b : bytes)
            {
                if (b == '"' || b == '\\')
                {
                    out.append('\\');
                }
                out.append((char)b);
            }
            return out.append('"').toString();
        }
        final String text = utf8(bytes);
        if (text == null || text.codePoints().anyMatch(Character::isISOControl))
        {
            return hex(bytes);
        }
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static boolean isAscii(final byte[] bytes)
    {
        for (final byte b : bytes)
        {
            if (b < 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every byte is printable ASCII (space to tilde), the common case the slow path
     * (strict decoding, a check per code point) would accept anyway.
     */
    private static boolean isPrintableAscii(final byte[] bytes)
    {
        for (final byte b : bytes)
        {
            if (b < 0x20 || b > 0x7E)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The bytes as {@code 0x} and lower-case hex.
     *
     * @param bytes the bytes.
     * @return the rendering.
     */
    static String hex(final byte[] bytes)
    {
        final StringBuilder out = new StringBuilder(2 + 2 * bytes.length).append("0x");
        for (final byte b : bytes)
        {
            out.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
        return out.toString();
    }
}
