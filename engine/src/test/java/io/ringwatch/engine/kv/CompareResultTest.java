package io.ringwatch.engine.kv;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareResultTest
{
    @Test
    void eachResultHoldsForItsSignOnly()
    {
        assertTrue(Compare.Result.EQUAL.holds(0));
        assertFalse(Compare.Result.EQUAL.holds(-3));
        assertTrue(Compare.Result.NOT_EQUAL.holds(2));
        assertFalse(Compare.Result.NOT_EQUAL.holds(0));
        assertTrue(Compare.Result.LESS.holds(-1));
        assertFalse(Compare.Result.LESS.holds(0));
        assertTrue(Compare.Result.GREATER.holds(7));
        assertFalse(Compare.Result.GREATER.holds(0));
    }
}
