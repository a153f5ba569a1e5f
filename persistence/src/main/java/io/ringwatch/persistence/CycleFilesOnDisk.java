package io.ringwatch.persistence;

import java.io.File;
import java.util.Arrays;

import net.openhft.chronicle.queue.impl.RollingResourcesCache;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

/**
 * The cycles of the queue files that exist in a queue's directory, read from the directory itself
 * rather than from Chronicle's listing in {@code metadata.cq4t}, which a kill during retention can
 * leave naming a first file that is gone (and which a read-only queue cannot refresh).
 * Package-private; any thread; allocates the array and a name cache per call.
 */
final class CycleFilesOnDisk
{
    private CycleFilesOnDisk()
    {
    }

    /**
     * @param queue the queue.
     * @return the cycles of its files, ascending; empty if there are none.
     */
    static long[] cycles(final SingleChronicleQueue queue)
    {
        final File directory = queue.file();
        final File[] files = directory.listFiles((dir, name) -> name.endsWith(SingleChronicleQueue.SUFFIX));
        if (files == null)
        {
            return new long[0];
        }
        final RollingResourcesCache names = new RollingResourcesCache(queue.rollCycle(), queue.epoch(),
            name -> new File(directory, name + SingleChronicleQueue.SUFFIX),
            file -> file.getName().substring(0, file.getName().length() - SingleChronicleQueue.SUFFIX.length()));
        final long[] cycles = new long[files.length];
        for (int i = 0; i < files.length; i++)
        {
            cycles[i] = names.toLong(files[i]);
        }
        Arrays.sort(cycles);
        return cycles;
    }
}
