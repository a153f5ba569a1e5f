package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import net.openhft.posix.PosixAPI;
import org.junit.jupiter.api.Test;

/**
 * {@link PagePrefault} asks the kernel to fault in the appender's pages in pieces of at most
 * {@link PagePrefault#PAGES_PER_CALL} pages (one advice holds the process's memory-map lock, which
 * the journal thread needs to map the log's next chunk and every page fault then waits for), covers
 * exactly the range up to the claimed bound within the current mapping, stops between pieces once
 * the appender has moved on, and asks a kernel without the advice once. The kernel is a recording
 * stand-in: these tests check the calls, not page faults.
 */
class PagePrefaultTest
{
    private static final long PAGE = 4096;
    private static final long MAX_PIECE = PagePrefault.PAGES_PER_CALL * PAGE;
    private static final long ADDRESS = 0x7f00_0000_0000L;
    private static final long CHUNK_START = 16L << 20;
    private static final long CHUNK_LIMIT = 32L << 20;

    private final File log = new File("00000.cq4");
    private final List<long[]> calls = new ArrayList<>();

    @Test
    void faultsTheClaimedRangeInInPiecesOfAtMostPagesPerCall()
    {
        final PagePrefault prefault = new PagePrefault(kernel(call -> 0));
        prefault.noteMapping(log, ADDRESS, CHUNK_START, CHUNK_LIMIT);

        prefault.prefault(log, CHUNK_START + 100, CHUNK_START + (8L << 20) + 10);

        assertEquals((8L << 20) / MAX_PIECE, calls.size(), "pieces for 8 MiB");
        long next = ADDRESS;
        for (final long[] call : calls)
        {
            assertEquals(next, call[0], "pieces follow each other from the write position's page");
            assertTrue(call[1] > 0 && call[1] <= MAX_PIECE, "piece of " + call[1] + " bytes");
            assertEquals(23, call[2], "MADV_POPULATE_WRITE");
            next += call[1];
        }
        assertEquals(ADDRESS + (8L << 20), next, "up to the claimed bound's page, never past it");
        assertEquals(8L << 20, prefault.bytesFaulted());
    }

    @Test
    void faultsEachPageInOnceAndNothingPastTheMapping()
    {
        final PagePrefault prefault = new PagePrefault(kernel(call -> 0));
        prefault.noteMapping(log, ADDRESS, CHUNK_START, CHUNK_LIMIT);
        prefault.prefault(log, CHUNK_START, CHUNK_START + (1L << 20));
        calls.clear();

        prefault.prefault(log, CHUNK_START + (1L << 19), CHUNK_LIMIT + (4L << 20));

        assertEquals(ADDRESS + (1L << 20), calls.get(0)[0], "starts where the last call ended");
        final long[] last = calls.get(calls.size() - 1);
        assertEquals(ADDRESS + (CHUNK_LIMIT - CHUNK_START), last[0] + last[1], "ends at the mapping's limit");
        assertEquals(CHUNK_LIMIT - CHUNK_START, prefault.bytesFaulted());
    }

    @Test
    void stopsBetweenPiecesOnceTheAppenderHasMovedToAnotherMapping()
    {
        final PagePrefault[] holder = new PagePrefault[1];
        final PagePrefault prefault = new PagePrefault(kernel(call ->
        {
            if (call == 2)
            {
                // The appending thread publishes the next chunk while the third piece runs.
                holder[0].noteMapping(log, ADDRESS + CHUNK_LIMIT, CHUNK_LIMIT, 2 * CHUNK_LIMIT);
            }
            return 0;
        }));
        holder[0] = prefault;
        prefault.noteMapping(log, ADDRESS, CHUNK_START, CHUNK_LIMIT);

        prefault.prefault(log, CHUNK_START, CHUNK_START + (8L << 20));

        assertEquals(3, calls.size(), "no piece of the old mapping after the appender left it");
        for (final long[] call : calls)
        {
            assertTrue(call[0] + call[1] <= ADDRESS + (CHUNK_LIMIT - CHUNK_START), "within the old mapping");
        }
    }

    @Test
    void aKernelWithoutTheAdviceIsAskedOnce()
    {
        final PagePrefault prefault = new PagePrefault(kernel(call -> -1));
        prefault.noteMapping(log, ADDRESS, CHUNK_START, CHUNK_LIMIT);

        prefault.prefault(log, CHUNK_START, CHUNK_START + (8L << 20));
        prefault.prefault(log, CHUNK_START, CHUNK_START + (8L << 20));

        assertEquals(1, calls.size());
        assertEquals(0, prefault.bytesFaulted());
    }

    @Test
    void anotherFilesRangeIsLeftAlone()
    {
        final PagePrefault prefault = new PagePrefault(kernel(call -> 0));
        prefault.noteMapping(log, ADDRESS, CHUNK_START, CHUNK_LIMIT);

        prefault.prefault(new File("00001.cq4"), CHUNK_START, CHUNK_START + (8L << 20));

        assertEquals(0, calls.size());
    }

    /**
     * A binding whose {@code madvise(address, length, advice)} records its arguments and answers
     * {@code answer} of the call's index; any other method is unexpected.
     */
    private PosixAPI kernel(final IntUnaryOperator answer)
    {
        return (PosixAPI)Proxy.newProxyInstance(
            PosixAPI.class.getClassLoader(),
            new Class<?>[] {PosixAPI.class},
            (proxy, method, args) ->
            {
                if (method.getName().equals("madvise") && args.length == 3 && args[2] instanceof Integer)
                {
                    calls.add(new long[] {(Long)args[0], (Long)args[1], (Integer)args[2]});
                    return answer.applyAsInt(calls.size() - 1);
                }
                throw new UnsupportedOperationException(method.toString());
            });
    }
}
