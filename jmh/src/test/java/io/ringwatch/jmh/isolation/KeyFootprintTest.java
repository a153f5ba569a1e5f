package io.ringwatch.jmh.isolation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyFootprintTest
{
    @Test
    void aSmallRunFillsEveryStoreAndReportsEachAtLeastItsPayloadPerKeyAndTheWindowsBoundApart() throws InterruptedException
    {
        final KeyFootprint.Figures figures = KeyFootprint.measure(20_000);

        assertEquals(20_000, figures.keys());
        assertTrue(figures.hashMapPerKey() >= KeyFootprint.PAYLOAD_BYTES,
            "a HashMap cannot hold 122 B of payload in less: " + figures);
        assertTrue(figures.indexPerKey() >= KeyFootprint.PAYLOAD_BYTES,
            "the index cannot hold 122 B of payload in less: " + figures);
        assertTrue(figures.windowBytes() > 0, "growing the window to its bound takes memory: " + figures);
        assertTrue(figures.engineBeyondWindowPerKey() < figures.enginePerKey(), figures.toString());
        assertTrue(figures.engineBeyondWindowPerKey() >= KeyFootprint.PAYLOAD_BYTES,
            "the engine cannot hold 122 B of payload in less: " + figures);
        assertTrue(figures.toString().contains("20,000 keys of 22 B with 100-B values"), figures.toString());
    }

    @Test
    void aKeyCountBelowOneIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> KeyFootprint.measure(0));
    }
}
