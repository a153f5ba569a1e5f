package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.ringbuffer.EventRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers of the revision log run on threads the engine's close does not join (delivery threads
 * catching a watcher up, callers reading at a past revision). Once the log is closed its chunks
 * are unmapped: a reader stepping through one then would crash the JVM (seen as SIGSEGVs in a
 * delivery thread after an overloaded run). The journal lets readers out before it closes the
 * log, and a reader after that reads nothing.
 */
class LogReaderAfterCloseTest
{
    private static final int REVISIONS = 2_000;

    @TempDir
    Path dir;

    @Test
    void readersSteppingThroughTheLogWhileItClosesAreLetOutFirstAndReadNothingAfter() throws Exception
    {
        final LogConfig config = LogConfig.builder(dir).build();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(config).build()))
        {
            for (int i = 0; i < REVISIONS; i++)
            {
                engine.put("/k/" + (i % 100), "value-" + i);
            }
        }

        final ChronicleJournal journal = ChronicleJournal.open(config, "gate-test");
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicLong stepped = new AtomicLong();
        final CountDownLatch started = new CountDownLatch(4);
        final Thread[] readers = new Thread[4];
        for (int t = 0; t < readers.length; t++)
        {
            readers[t] = new Thread(() ->
            {
                final EventRecord event = new EventRecord();
                try (HistoryReader reader = journal.newReader())
                {
                    started.countDown();
                    while (true)
                    {
                        assertTrue(reader.seek(1), "the log holds revision 1 or waits past its end while closing");
                        long read = 0;
                        while (reader.next(event))
                        {
                            read++;
                        }
                        stepped.addAndGet(read);
                        if (read < REVISIONS)
                        {
                            // Cut short: only the close does that, and every later step reads nothing.
                            assertFalse(reader.next(event));
                            assertTrue(reader.seek(1));
                            assertFalse(reader.next(event));
                            return;
                        }
                    }
                }
                catch (final Throwable t2)
                {
                    failure.set(t2);
                }
            }, "log-reader-" + t);
            readers[t].start();
        }
        started.await();
        while (stepped.get() < 4L * REVISIONS)
        {
            Thread.onSpinWait();
        }
        journal.close();
        for (final Thread reader : readers)
        {
            reader.join();
        }
        assertNull(failure.get(), () -> "a reader failed: " + failure.get());
        assertTrue(stepped.get() >= 4L * REVISIONS);
    }

    @Test
    void aReaderOfAClosedJournalReadsNothing() throws Exception
    {
        final LogConfig config = LogConfig.builder(dir).build();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().persistence(config).build()))
        {
            engine.put("/k", "v");
        }
        final ChronicleJournal journal = ChronicleJournal.open(config, "gate-test");
        final HistoryReader reader = journal.newReader();
        final EventRecord event = new EventRecord();
        assertTrue(reader.seek(1));
        assertTrue(reader.next(event));
        assertEquals(1, event.revision());
        journal.close();
        assertTrue(reader.seek(1), "a closing log is waited past, not reported as compacted");
        assertFalse(reader.next(event));
        reader.close();
    }
}
