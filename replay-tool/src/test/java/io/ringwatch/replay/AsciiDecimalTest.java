package io.ringwatch.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class AsciiDecimalTest
{
    @Test
    void writesTheDigitsLongToStringWritesAtEveryLengthAndEdge()
    {
        for (long power = 1; power <= 1_000_000_000_000_000_000L && power > 0; power *= 10)
        {
            assertDigits(power);
            assertDigits(power - 1);
            assertDigits(power + 1);
            assertDigits(power * 9);
        }
        assertDigits(0);
        assertDigits(Integer.MAX_VALUE);
        assertDigits(Integer.MAX_VALUE + 1L);
        assertDigits(Long.MAX_VALUE);
        assertDigits(-1);
        assertDigits(Long.MIN_VALUE);
    }

    @Test
    void writesTheDigitsLongToStringWritesForRandomValues()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 100_000; i++)
        {
            final long value = random.nextLong() >>> random.nextInt(64);
            assertEquals(Long.toString(value), written(value), "seed " + seed);
        }
    }

    @Test
    void writesAtTheGivenOffsetAndLeavesTheRestAlone()
    {
        final byte[] into = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        final int end = AsciiDecimal.write(40_961, into, 3);
        assertEquals(8, end);
        assertEquals("xxx40961xxxxxxxxxxxxxxxxxxxxxx", new String(into, StandardCharsets.US_ASCII));
    }

    private static void assertDigits(final long value)
    {
        assertEquals(Long.toString(value), written(value));
    }

    private static String written(final long value)
    {
        final byte[] into = new byte[AsciiDecimal.MAX_LENGTH];
        final int end = AsciiDecimal.write(value, into, 0);
        return new String(into, 0, end, StandardCharsets.US_ASCII);
    }
}
