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
    private MemoryUse()
    {
    }

    /**
     * Runs three full GCs, 50 ms apart (a cleaner frees direct buffers after the GC that finds them
     * unreachable), and reads the heap in use.
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
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
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
