package io.ringwatch.persistence;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableSet;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

/**
 * One retention pass: walks cycle files oldest first and deletes each while it is entirely below
 * the safety bound and the policy calls it surplus; stops at the first file it must keep, so the
 * retained log stays contiguous. Never deletes the newest cycle. Package-private; writer thread.
 */
final class RetentionSweep
{
    private final SingleChronicleQueue queue;
    private final LogReader reader;
    private final RetentionPolicy policy;
    private final long nowMillis;

    RetentionSweep(final SingleChronicleQueue queue, final LogReader reader, final RetentionPolicy policy, final long nowMillis)
    {
        this.queue = queue;
        this.reader = reader;
        this.policy = policy;
        this.nowMillis = nowMillis;
    }

    /**
     * Runs the pass.
     *
     * @param bound        no file holding a revision at or above this is deleted.
     * @param lastRevision the newest revision in the log.
     * @return how many files were deleted.
     */
    int run(final long bound, final long lastRevision)
    {
        queue.refreshDirectoryListing();
        final int first = queue.firstCycle();
        final int last = queue.lastCycle();
        if (first == Integer.MAX_VALUE || last <= first)
        {
            return 0;
        }
        final NavigableSet<Long> cycles = queue.listCyclesBetween(first, last);
        long totalBytes = queueBytes();
        int deleted = 0;
        for (final Long boxed : cycles)
        {
            final int cycle = boxed.intValue();
            if (cycle >= last)
            {
                break;
            }
            final long newest = reader.lastRevisionInCycle(cycle);
            if (newest >= bound || !isSurplus(cycle, newest, lastRevision, totalBytes))
            {
                break;
            }
            final File file = fileOf(cycle);
            if (file == null)
            {
                continue;
            }
            final long size = file.length();
            try
            {
                Files.deleteIfExists(file.toPath());
            }
            catch (final IOException ex)
            {
                throw new LogWriteException("Cannot delete old cycle file " + file + ": " + ex, ex);
            }
            totalBytes -= size;
            deleted++;
        }
        if (deleted > 0)
        {
            // Chronicle caches the directory listing; tailers and firstCycle() must see the deletions.
            queue.refreshDirectoryListing();
        }
        return deleted;
    }

    private boolean isSurplus(final int cycle, final long newestRevision, final long lastRevision, final long totalBytes)
    {
        if (policy.keepRevisions() > 0 && newestRevision <= lastRevision - policy.keepRevisions())
        {
            return true;
        }
        if (policy.maxAge() != null)
        {
            final long cycleEnd = queue.epoch() + (cycle + 1L) * queue.rollCycle().lengthInMillis();
            if (cycleEnd <= nowMillis - policy.maxAge().toMillis())
            {
                return true;
            }
        }
        return policy.maxBytes() > 0 && totalBytes > policy.maxBytes();
    }

    private File fileOf(final int cycle)
    {
        final SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null)
        {
            return null;
        }
        try
        {
            return store.file();
        }
        finally
        {
            queue.closeStore(store);
        }
    }

    private long queueBytes()
    {
        long total = 0;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(queue.file().toPath(), "*.cq4"))
        {
            for (final Path file : stream)
            {
                total += Files.size(file);
            }
        }
        catch (final IOException ex)
        {
            throw new LogWriteException("Cannot measure " + queue.file() + ": " + ex, ex);
        }
        return total;
    }
}
