package io.ringwatch.persistence;

import java.io.File;
import java.io.IOException;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * Looks at the end of every queue file through plain reads before anything reads its documents
 * through a read-only mapping. A page of a mapping past a file's end faults (SIGBUS), and the JVM
 * reports a fault in compiled code as an {@link InternalError} thrown at the faulting thread's next
 * safepoint poll, which may be anywhere after it: one delivered inside a {@code java.util.concurrent}
 * lock left Chronicle's background releaser locked by the opening thread for good, and every other
 * thread's next close of a queue resource (a journal's roll, a reader's close) waited on it for
 * ever (a refused open of a queue file cut short did it in a clean-clone verify). So a file cut short
 * is refused here, typed, before any such read, and a torn last document (a writer killed inside its
 * header, whose garbage length sends Chronicle's scan past the file's end) is reported to the caller.
 * <p>
 * Each file is walked from its store's write position (the header of its last complete document,
 * in the store header on the file's first page, which a mapping of a non-empty file can always
 * read) to its first incomplete header: usually one or two four-byte reads per file.
 * Package-private; the opening thread; allocates a little per file.
 */
final class QueueFileCheck
{
    private QueueFileCheck()
    {
    }

    /**
     * Refuses a queue with a file cut short.
     *
     * @param queue the queue, just opened; nothing read from it yet.
     * @return true if the last file ends in a torn (not-complete) header.
     * @throws LogCorruptedException if a document of some file runs past that file's end, or a file
     *                               cannot be read.
     */
    static boolean requireWhole(final SingleChronicleQueue queue)
    {
        final long[] cycles = CycleFilesOnDisk.cycles(queue);
        boolean tornTail = false;
        for (int i = 0; i < cycles.length; i++)
        {
            final long cycle = cycles[i];
            final SingleChronicleQueueStore store = queue.storeForCycle((int)cycle, queue.epoch(), false, null);
            if (store == null)
            {
                // Deleted by retention since the listing.
                continue;
            }
            final File file;
            final long from;
            try
            {
                file = store.file();
                from = store.writePosition();
            }
            finally
            {
                queue.closeStore(store);
            }
            final QueueFileWalk walk = walk(file, from);
            if (walk.end() == QueueFileWalk.End.CUT_SHORT)
            {
                throw new LogCorruptedException("The queue file " + file + " is cut short: a document at or after " +
                    from + " runs past its end (" + file.length() + " bytes)");
            }
            tornTail = i == cycles.length - 1 && walk.end() == QueueFileWalk.End.TORN;
        }
        return tornTail;
    }

    private static QueueFileWalk walk(final File file, final long from)
    {
        try
        {
            return new QueueFileWalk().walk(file.toPath(), from);
        }
        catch (final IOException ex)
        {
            throw new LogCorruptedException("Cannot read " + file + ": " + ex, ex);
        }
    }
}
