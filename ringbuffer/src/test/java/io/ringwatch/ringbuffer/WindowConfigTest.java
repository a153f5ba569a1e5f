package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

class WindowConfigTest
{
    @Test
    void defaultsMatchTheKubernetesWatchCacheScale()
    {
        final WindowConfig config = WindowConfig.defaults();

        assertEquals(1024, config.minCapacity());
        assertEquals(131_072, config.maxCapacity());
        assertEquals(75_000_000_000L, config.freshnessNanos());
        assertEquals(256, config.dataBytesPerEvent());
    }

    @Test
    void dataCapacityIsTheNextPowerOfTwoOfTheLargerNeed()
    {
        final WindowConfig config = WindowConfig.builder()
            .minCapacity(4).maxCapacity(1024).maxEventBytes(1000).dataBytesPerEvent(100).build();

        assertEquals(4096, config.dataCapacityFor(4), "4 * maxEventBytes = 4000 dominates");
        assertEquals(131_072, config.dataCapacityFor(1024), "1024 * 100 = 102400");
    }

    @Test
    void rejectsOutOfRangeSettings()
    {
        assertInvalid(b -> b.minCapacity(6));
        assertInvalid(b -> b.minCapacity(2));
        assertInvalid(b -> b.maxCapacity(1000));
        assertInvalid(b -> b.minCapacity(64).maxCapacity(32));
        assertInvalid(b -> b.maxCapacity(1 << 25));
        assertInvalid(b -> b.freshnessNanos(0));
        assertInvalid(b -> b.maxEventBytes(0));
        assertInvalid(b -> b.maxEventBytes(-1));
        assertInvalid(b -> b.dataBytesPerEvent(0));
        assertInvalid(b -> b.maxEventBytes(1 << 29));
        assertInvalid(b -> b.maxCapacity(1 << 24).dataBytesPerEvent(128));
    }

    private static void assertInvalid(final UnaryOperator<WindowConfig.Builder> settings)
    {
        assertThrows(InvalidWindowConfigException.class, () -> settings.apply(WindowConfig.builder()).build());
    }
}
