package io.ringwatch.perf.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProducerWaitTest
{
    @Test
    void parkYieldParksAllButTheMarginOfALongWait()
    {
        assertEquals(500_000 - ProducerWait.PARK_MARGIN_NANOS, ProducerWait.parkBefore(500_000));
        assertEquals(1, ProducerWait.parkBefore(ProducerWait.PARK_MARGIN_NANOS + 1));
    }

    @Test
    void parkYieldOnlyYieldsWithinTheMargin()
    {
        assertEquals(0, ProducerWait.parkBefore(ProducerWait.PARK_MARGIN_NANOS));
        assertEquals(0, ProducerWait.parkBefore(5_000), "200,000 writes/s: 5 µs apart");
        assertEquals(0, ProducerWait.parkBefore(-1), "already late");
    }
}
