package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The hand-over of a prepared generation: the copier and the writer never own it together, the
 * writer learns how far the copier got, and nothing takes it back from the writer.
 */
class PreparedGenerationTest
{
    private final Generation source = new Generation(4, 1024, 256, 0, 0);
    private final PreparedGeneration prepared = new PreparedGeneration(source, new Generation(8, 1024, 256, 0, 0));

    @Test
    void theWriterCannotTakeItWhileTheCopierHoldsIt()
    {
        assertTrue(prepared.claim());
        assertFalse(prepared.take(), "the copier is busy with a chunk");
        assertFalse(prepared.claim(), "one claim at a time");

        prepared.release(5);

        assertTrue(prepared.take());
        assertEquals(5, prepared.copiedUpTo());
    }

    @Test
    void theCopierCannotClaimItOnceTheWriterTookIt()
    {
        assertTrue(prepared.take());

        assertFalse(prepared.claim());
        assertFalse(prepared.take(), "taken once");
        assertEquals(0, prepared.copiedUpTo(), "nothing copied");
    }
}
