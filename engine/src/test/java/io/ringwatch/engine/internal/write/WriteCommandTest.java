package io.ringwatch.engine.internal.write;

import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write ring slot keeps its key, range end and value buffers from one command to the next only
 * while they are small: once a command is complete, a buffer grown past the retained size is
 * dropped, so a slot that once carried a huge value does not hold it until the ring wraps, or for ever.
 */
class WriteCommandTest
{
    @Test
    void buffersGrownPastTheRetainedSizeAreDroppedOnceTheCommandIsCompleteAndSmallerOnesKept()
    {
        final WriteCommand command = new WriteCommand();
        command.reset(WriteCommand.PUT, null, null);
        command.key(new byte[100]);
        command.value(new byte[WriteCommand.RETAINED_BYTES / 2]);
        final ExpandableArrayBuffer smallKey = command.key;
        final ExpandableArrayBuffer smallValue = command.value;
        command.complete();
        command.reset(WriteCommand.PUT, null, null);
        assertSame(smallKey, command.key, "a key buffer within the retained size is reused");
        assertSame(smallValue, command.value, "a value buffer within the retained size is reused");

        command.key(new byte[WriteCommand.RETAINED_BYTES + 1]);
        command.value(new byte[1 << 20]);
        command.rangeEnd(new byte[WriteCommand.RETAINED_BYTES + 1]);
        command.complete();
        assertTrue(command.key.capacity() <= WriteCommand.RETAINED_BYTES, "key buffer kept: " + command.key.capacity());
        assertTrue(command.value.capacity() <= WriteCommand.RETAINED_BYTES, "value buffer kept: " + command.value.capacity());
        assertTrue(command.rangeEnd.capacity() <= WriteCommand.RETAINED_BYTES, "range end buffer kept: " + command.rangeEnd.capacity());

        final byte[] value = {1, 2, 3};
        command.value(value);
        assertTrue(command.valueLength == 3 && command.value.getByte(2) == 3, "the new buffer takes the next value");
    }
}
