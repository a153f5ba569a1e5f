package io.ringwatch.replay;

/**
 * Keys as hex strings: sortable in unsigned byte order and usable as map keys in tests.
 */
final class HexKey
{
    private HexKey()
    {
    }

    static String of(final byte[] key)
    {
        return ByteText.hex(key);
    }
}
