package io.ringwatch.engine.internal.read;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.agrona.BufferUtil;

import java.lang.management.ManagementFactory;

/**
 * The size of a read arena's largest chunk: a byte array that a young collection never copies.
 * G1 copies every live young object at each young pause, which stops the writer, but it allocates
 * an array of at least half a heap region straight into regions of its own ("humongous") and
 * never moves it. So with G1 the largest chunk fills exactly one region (the region less the
 * array's header), humongous however large the heap and its regions; a chunk never spans regions
 * it does not fill. Other collectors (ZGC, Shenandoah) move objects concurrently, without a pause
 * the writer waits for, or (Parallel, Serial) have no such threshold: they get
 * {@link #FALLBACK_BYTES}.
 *
 * <p>Read once, from the JVM's options, when the class loads; any thread afterwards.
 */
final class UncopiedChunkSize
{
    /** The largest chunk when the collector is not G1 or its region size cannot be read. */
    static final int FALLBACK_BYTES = (4 << 20) - header();

    /** The largest chunk for this JVM. */
    static final int BYTES = forRegion(g1RegionBytes(), header());

    private UncopiedChunkSize()
    {
    }

    /**
     * @param regionBytes G1's region size, or 0 when the collector is not G1 or it is unknown.
     * @param header      bytes an array's header takes, rounded to the object alignment.
     * @return the largest chunk: one region less the header, or {@link #FALLBACK_BYTES}.
     */
    static int forRegion(final long regionBytes, final int header)
    {
        if (regionBytes <= 0 || regionBytes > Integer.MAX_VALUE)
        {
            return FALLBACK_BYTES;
        }
        return (int)regionBytes - header;
    }

    /** @return G1's region size in bytes, or 0 when G1 is not the collector or the option is unreadable. */
    private static long g1RegionBytes()
    {
        try
        {
            final HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (vm == null || !Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue()))
            {
                return 0;
            }
            return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
        }
        catch (final RuntimeException | LinkageError notHotSpot)
        {
            // Not a HotSpot JVM, or no java.management / jdk.management module: the fallback is safe, only less sharp.
            return 0;
        }
    }

    /** @return a byte array's header rounded up to 8, the default object alignment. */
    private static int header()
    {
        return (int)((BufferUtil.ARRAY_BASE_OFFSET + 7) & ~7L);
    }
}
