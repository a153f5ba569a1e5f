package io.ringwatch.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ringwatch.engine.errors.InvalidRequestException;

import org.junit.jupiter.api.Test;

/**
 * The crash revision bump must cover a write ring's worth of revisions shown before the journal
 * appended them, plus the one a client resumes after.
 */
class CrashRevisionBumpConfigTest
{
    @Test
    void theDefaultIsTwoToTheTwentiethOrTwiceTheWriteRing()
    {
        assertEquals(1L << 20, RingWatchConfig.defaults().crashRevisionBump());
        assertEquals(1L << 22, RingWatchConfig.builder().writeRingSize(1 << 21).build().crashRevisionBump());
    }

    @Test
    void aBumpThatDoesNotCoverTheWriteRingIsRefused()
    {
        assertEquals(1026, RingWatchConfig.builder().writeRingSize(1024).crashRevisionBump(1026).build().crashRevisionBump());
        assertThrows(InvalidRequestException.class,
            () -> RingWatchConfig.builder().writeRingSize(1024).crashRevisionBump(1025).build());
        assertThrows(InvalidRequestException.class, () -> RingWatchConfig.builder().crashRevisionBump(0));
    }
}
