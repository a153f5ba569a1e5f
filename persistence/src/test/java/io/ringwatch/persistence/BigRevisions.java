package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Revisions of one PUT with a large value whose every byte is derived from the revision, for the
 * disk-full tests: they fill a small disk quickly and can be checked byte for byte.
 */
final class BigRevisions
{
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
    private final UnsafeBuffer value;

    BigRevisions(final int valueBytes)
    {
        value = new UnsafeBuffer(new byte[valueBytes]);
    }

    /** Begins, fills and ends revision {@code revision}; whatever endRevision throws propagates. */
    void write(final RevisionLog log, final long revision)
    {
        log.beginRevision(revision, revision);
        key.putLong(0, revision);
        key.putLong(8, ~revision);
        value.setMemory(0, value.capacity(), (byte)revision);
        log.appendChange(ChangeType.PUT, key, 0, key.capacity(), value, 0, value.capacity(), revision, revision, 1,
            null, 0, 0, 0, 0, 0);
        log.endRevision();
    }

    /** Reads revisions 1..last from the start of the log and checks every byte. */
    void readAll(final RevisionLog log, final long last)
    {
        try (LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            for (long r = 1; r <= last; r++)
            {
                assertTrue(reader.next(record), "revision " + r + " missing");
                assertEquals(r, record.revision());
                final ChangeView change = record.change(0);
                assertEquals(value.capacity(), change.valueLength(), "value length of " + r);
                for (int i = 0; i < change.valueLength(); i += 61)
                {
                    assertEquals((byte)r, change.buffer().getByte(change.valueOffset() + i), "value of " + r);
                }
            }
            assertFalse(reader.next(record), "nothing after " + last);
        }
    }
}
