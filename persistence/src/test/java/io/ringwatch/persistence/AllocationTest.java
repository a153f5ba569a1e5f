package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steady-state allocation of append and read, measured with the thread's allocation counter. Until
 * C2 has compiled the path, escape analysis has not removed Chronicle's short-lived temporaries, so
 * the test measures rounds after a warm-up and requires a round with zero bytes.
 */
class AllocationTest
{
    private static final int WARM_UP = 40_000;
    private static final int ROUND = 5_000;
    private static final int MAX_ROUNDS = 8;
    /** One flush per batch: the engine's group commit. */
    private static final int BATCH = 64;

    @TempDir
    Path dir;

    private final UnsafeBuffer key = new UnsafeBuffer(new byte[32]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer encoded = new UnsafeBuffer(new byte[256]);
    private long revision;

    /** Looked up once: ManagementFactory.getThreadMXBean() itself allocates on every call. */
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static long allocatedBytes()
    {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    private void append(final RevisionLog log)
    {
        revision++;
        log.beginRevision(revision, revision);
        key.putLong(0, revision);
        log.appendChange(ChangeType.PUT, key, 0, 32, value, 0, 64, revision, revision, 1, value, 0, 16, 1, revision - 1, 1);
        log.appendChange(ChangeType.DELETE, key, 0, 8, null, 0, 0, 0, 0, 0, null, 0, 0, 1, 1, 1);
        log.endRevision();
        if (revision % BATCH == 0)
        {
            log.flush();
        }
    }

    /** One PUT already in the per-change layout, as the engine's change record hands it over. */
    private void appendWhole(final RevisionLog log)
    {
        revision++;
        encoded.putByte(ExcerptLayout.TYPE, ChangeType.PUT);
        encoded.putInt(ExcerptLayout.KEY_LENGTH, 32, ByteOrder.LITTLE_ENDIAN);
        encoded.putInt(ExcerptLayout.VALUE_LENGTH, 64, ByteOrder.LITTLE_ENDIAN);
        encoded.putLong(ExcerptLayout.CREATE_REVISION, revision, ByteOrder.LITTLE_ENDIAN);
        encoded.putLong(ExcerptLayout.MOD_REVISION, revision, ByteOrder.LITTLE_ENDIAN);
        encoded.putLong(ExcerptLayout.VERSION, 1, ByteOrder.LITTLE_ENDIAN);
        encoded.putLong(ExcerptLayout.CHANGE_FIXED_LENGTH, revision);
        log.appendRevision(revision, revision, encoded, 0, ExcerptLayout.CHANGE_FIXED_LENGTH + 32 + 64, 1);
        if (revision % BATCH == 0)
        {
            log.flush();
        }
    }

    private long appendWholeRound(final RevisionLog log)
    {
        long allocated = 0;
        for (int i = 0; i < ROUND; i++)
        {
            final long before = allocatedBytes();
            appendWhole(log);
            allocated += allocatedBytes() - before;
        }
        return allocated;
    }

    private long appendRound(final RevisionLog log)
    {
        long allocated = 0;
        for (int i = 0; i < ROUND; i++)
        {
            final long before = allocatedBytes();
            append(log);
            allocated += allocatedBytes() - before;
        }
        return allocated;
    }

    private long readRound(final RevisionLog log, final LogReader reader, final RevisionRecord record)
    {
        long allocated = 0;
        for (int i = 0; i < ROUND; i++)
        {
            final long before = allocatedBytes();
            final boolean read = reader.next(record);
            record.change(0).keyLength();
            allocated += allocatedBytes() - before;
            if (!read)
            {
                append(log);
            }
        }
        return allocated;
    }

    private static void assertSomeRoundAllocatesNothing(final String what, final LongSupplier round)
    {
        final long[] bytes = new long[MAX_ROUNDS];
        for (int i = 0; i < MAX_ROUNDS; i++)
        {
            bytes[i] = round.getAsLong();
            if (bytes[i] == 0)
            {
                return;
            }
        }
        assertTrue(false, what + " allocated in every round of " + ROUND + ": " + Arrays.toString(bytes));
    }

    @Test
    void appendAndReadAllocateNothingInSteadyState()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build());
            LogReader reader = log.reader())
        {
            final RevisionRecord record = new RevisionRecord();
            for (int i = 0; i < WARM_UP; i++)
            {
                append(log);
                reader.next(record);
            }
            assertSomeRoundAllocatesNothing("append with a flush per batch", () -> appendRound(log));
            assertSomeRoundAllocatesNothing("read", () -> readRound(log, reader, record));
        }
    }

    @Test
    void appendingWholeEncodedRevisionsAllocatesNothingInSteadyState()
    {
        try (RevisionLog log = RevisionLog.open(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build()))
        {
            for (int i = 0; i < WARM_UP; i++)
            {
                appendWhole(log);
            }
            assertSomeRoundAllocatesNothing("appendRevision with a flush per batch", () -> appendWholeRound(log));
        }
    }
}
