package io.ringwatch.ringbuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PaddedSequenceTest
{
    @Test
    void everyAccessModeSeesTheLatestValueOnOneThread()
    {
        final PaddedSequence sequence = new PaddedSequence(-1);
        assertEquals(-1, sequence.get());

        sequence.set(5);
        assertEquals(5, sequence.get());
        assertEquals(5, sequence.getPlain());

        sequence.setVolatile(7);
        assertEquals(7, sequence.getVolatile());
        assertEquals("7", sequence.toString());
    }

    @Test
    void compareAndSetReplacesOnlyTheExpectedValue()
    {
        final PaddedSequence sequence = new PaddedSequence(3);

        assertFalse(sequence.compareAndSet(2, 9));
        assertEquals(3, sequence.get());
        assertTrue(sequence.compareAndSet(3, 9));
        assertEquals(9, sequence.get());
    }

    @Test
    void valueIsVisibleAcrossThreads() throws InterruptedException
    {
        final PaddedSequence sequence = new PaddedSequence(0);
        final Thread writer = new Thread(() -> sequence.set(42));
        writer.start();
        writer.join();

        assertEquals(42, sequence.get());
    }
}
