package io.ringwatch.perf.load;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * Leaves the heap in the same state before every measured run: a full collection promotes what
 * the peer's setup built (its structures, the watchers), so that no young collection copies it
 * inside the measured phase, and the heap keeps the size it had, so that every peer of an
 * invocation runs with the same young generation.
 *
 * <p>Why both: a run's first young collection copies everything setup allocated, 8 to 14 ms for
 * RingWatch's 1,000 watchers at 2,000 writes/s on the team's 2-core VM, and whether it falls inside
 * the measured phase depended on how much a peer allocated at setup. A full collection alone let
 * G1 shrink the heap to what it held (388 to 68 MiB), which left an eden of about 2 MiB: young
 * collections every few seconds for the peers after the first. So the first settle makes the
 * heap's free ratio unbounded ({@code MaxHeapFreeRatio} = 100, a manageable flag of HotSpot),
 * and a full collection does not shrink it any more.
 *
 * <p>Main thread, between runs; allocates only on its first call. On a JVM without that flag the
 * heap may shrink, as before; the collection still runs.
 */
public final class HeapSettle
{
    private static final String MAX_HEAP_FREE_RATIO = "MaxHeapFreeRatio";
    private static boolean sizeKept;

    private HeapSettle()
    {
    }

    /**
     * Collects the whole heap, keeping its size. Call when nothing of a run is in flight: before
     * its clock starts, or after it ended.
     */
    public static void settle()
    {
        keepHeapSize();
        System.gc();
    }

    /**
     * @return whether full collections keep the heap's size in this JVM (after a first
     * {@link #settle()}).
     */
    public static boolean keepsHeapSize()
    {
        return "100".equals(diagnostics().getVMOption(MAX_HEAP_FREE_RATIO).getValue());
    }

    private static void keepHeapSize()
    {
        if (sizeKept)
        {
            return;
        }
        sizeKept = true;
        try
        {
            diagnostics().setVMOption(MAX_HEAP_FREE_RATIO, "100");
        }
        catch (final IllegalArgumentException | UnsupportedOperationException | SecurityException e)
        {
            // Not HotSpot, or not manageable there: the collection still promotes setup's objects.
        }
    }

    private static HotSpotDiagnosticMXBean diagnostics()
    {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    }
}
