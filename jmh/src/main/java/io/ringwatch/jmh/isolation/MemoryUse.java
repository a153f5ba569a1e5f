package io.ringwatch.jmh.isolation;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Heap and direct memory in use, read the way the footprint programs compare a structure's size:
 * after full GCs, so that only reachable objects count. Any thread; allocates little (the MXBean
 * look-ups).
 */
final class MemoryUse
{
    private static final int SETTLE_TRIES = 100;
    private static final long SETTLE_MILLIS = 50;

    private MemoryUse()
    {
    }

    /**
     * Runs three full GCs, 50 ms apart, waits for the cleaner to free the direct buffers they found
     * unreachable, and reads the heap in use.
     *
     * @return bytes of heap in use.
     * @throws InterruptedException if interrupted between the GCs.
     */
    static long heapAfterGc() throws InterruptedException
    {
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            Thread.sleep(50);
        }
        awaitCleaner();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Waits, up to {@value #SETTLE_TRIES} reads {@value #SETTLE_MILLIS} ms apart, until direct memory
     * in use stays the same for three reads in a row: the cleaner frees the buffers a GC found
     * unreachable on a thread of its own, which on a loaded machine lags the GC by hundreds of
     * milliseconds, and a reading taken meanwhile counts buffers already dead.
     */
    private static void awaitCleaner() throws InterruptedException
    {
        long last = directBytes();
        int unchanged = 0;
        for (int i = 0; i < SETTLE_TRIES && unchanged < 3; i++)
        {
            Thread.sleep(SETTLE_MILLIS);
            final long now = directBytes();
            unchanged = now == last ? unchanged + 1 : 0;
            last = now;
        }
    }

    /**
     * @return bytes of direct buffers in use now ({@code ByteBuffer.allocateDirect}, which is how the
     * engine's off-heap index, arenas and watch window take their memory).
     */
    static long directBytes()
    {
        long used = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if ("direct".equals(pool.getName()))
            {
                used += pool.getMemoryUsed();
            }
        }
        return used;
    }
}
