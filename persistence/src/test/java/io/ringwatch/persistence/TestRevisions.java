package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes and checks deterministic revisions: revision r holds (r % 3) + 1 changes whose every field
 * is derived from r and the change number, so a reader can check each byte it gets back.
 */
final class TestRevisions
{
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[256]);
    private final UnsafeBuffer prev = new UnsafeBuffer(new byte[256]);

    static int changes(final long revision)
    {
        return (int)(revision % 3) + 1;
    }

    static byte type(final long revision, final int change)
    {
        return (revision + change) % 4 == 0 ? ChangeType.DELETE : ChangeType.PUT;
    }

    static int keyLength(final long revision, final int change)
    {
        return 1 + (int)((revision * 7 + change) % 40);
    }

    static int valueLength(final long revision, final int change)
    {
        return type(revision, change) == ChangeType.DELETE ? 0 : (int)((revision * 13 + change) % 200);
    }

    static int prevLength(final long revision, final int change)
    {
        return (int)((revision * 5 + change) % 3 == 0 ? 0 : (revision + change * 11) % 100);
    }

    static byte fill(final long revision, final int change, final int part)
    {
        return (byte)(revision * 31 + change * 7 + part);
    }

    /**
     * Appends revision {@code revision} to {@code log}.
     */
    void write(final RevisionLog log, final long revision)
    {
        log.beginRevision(revision, revision * 1_000L);
        for (int c = 0; c < changes(revision); c++)
        {
            final int kl = keyLength(revision, c);
            final int vl = valueLength(revision, c);
            final int pl = prevLength(revision, c);
            key.setMemory(0, kl, fill(revision, c, 1));
            value.setMemory(0, vl, fill(revision, c, 2));
            prev.setMemory(0, pl, fill(revision, c, 3));
            final boolean delete = type(revision, c) == ChangeType.DELETE;
            log.appendChange(type(revision, c), key, 0, kl, value, 0, vl,
                delete ? 0 : revision - c, delete ? 0 : revision, delete ? 0 : c + 1,
                pl == 0 ? null : prev, 0, pl, revision - 10, revision - 1, c);
        }
        log.endRevision();
    }

    /**
     * Checks every field of {@code record} against what {@link #write} stored for its revision.
     */
    static void check(final RevisionRecord record, final long revision)
    {
        assertEquals(revision, record.revision(), "revision");
        assertEquals(revision * 1_000L, record.timestampNanos(), "timestamp of " + revision);
        assertEquals(changes(revision), record.changeCount(), "change count of " + revision);
        for (int c = 0; c < changes(revision); c++)
        {
            final ChangeView change = record.change(c);
            final String where = "revision " + revision + " change " + c;
            final boolean delete = type(revision, c) == ChangeType.DELETE;
            assertEquals(type(revision, c), change.type(), where);
            checkBytes(change, change.keyOffset(), change.keyLength(), keyLength(revision, c), fill(revision, c, 1), where + " key");
            checkBytes(change, change.valueOffset(), change.valueLength(), valueLength(revision, c), fill(revision, c, 2), where + " value");
            checkBytes(change, change.prevValueOffset(), change.prevValueLength(), prevLength(revision, c), fill(revision, c, 3), where + " prev");
            assertEquals(delete ? 0 : revision - c, change.createRevision(), where);
            assertEquals(delete ? 0 : revision, change.modRevision(), where);
            assertEquals(delete ? 0 : c + 1, change.version(), where);
            assertEquals(revision - 10, change.prevCreateRevision(), where);
            assertEquals(revision - 1, change.prevModRevision(), where);
            assertEquals(c, change.prevVersion(), where);
        }
    }

    private static void checkBytes(
        final ChangeView change, final int offset, final int length, final int expectedLength, final byte expected,
        final String where)
    {
        assertEquals(expectedLength, length, where + " length");
        for (int i = 0; i < length; i++)
        {
            if (change.buffer().getByte(offset + i) != expected)
            {
                assertEquals(expected, change.buffer().getByte(offset + i), where + " byte " + i);
            }
        }
    }

    static UnsafeBuffer bytes(final String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.UTF_8));
    }
}
