package io.ringwatch.persistence;

import java.io.File;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.posix.PosixAPI;

/**
 * Faults the appender's mapped pages in ahead of its write position, off the appending thread, so
 * that the appending thread writes into pages already mapped writable instead of taking a page
 * fault per new 4 KiB page of the log (at 200,000 writes/s about 7,500 a second, each one run on
 * the journal thread and, since the thread is in Java code while it faults, holding up every
 * safepoint for as long as the fault takes).
 * <p>
 * How: {@code madvise(MADV_POPULATE_WRITE)} (Linux 5.14 and later) over the appender's current
 * mapping (Chronicle's mapped chunk), from the write position up to where disk space is claimed.
 * It faults the pages in as a write would, but writes nothing: it cannot change a byte of the log,
 * and where the file system cannot back a page it returns an error instead of raising SIGBUS. The
 * call runs in native code, where a safepoint does not wait for it. Chronicle's own pretoucher
 * ({@code ExcerptAppender.pretouch()}) is an Enterprise feature: in open-source Chronicle Queue
 * 2026.4 it recurses into a {@link StackOverflowError}.
 * <p>
 * One call faults in at most {@value #PAGES_PER_CALL} pages. The advice holds the process's
 * memory-map lock (shared) over its whole range; a thread that maps or unmaps (the journal thread
 * mapping the log's next chunk, Chronicle's releaser unmapping the last one, the JVM committing
 * heap) waits for that lock exclusively, and every page fault of every other thread then queues
 * behind it. One call over the whole claimed distance (8 MiB, 2,048 pages) took 25 to 515 ms on
 * the shared 2-core VM, and the journal thread waited in {@code lock_mm_and_find_vma} and
 * {@code __mmap_region} meanwhile, so the write ring filled behind it. In pieces, a waiting mapper
 * gets the lock after at most one piece.
 * <p>
 * The appending thread publishes its mapping (address and file range) when it changes
 * ({@link #noteMapping}, once per chunk); the log's space thread calls {@link #prefault}. The space
 * thread takes no reference on Chronicle's mapping (Chronicle's reference counts and their
 * listeners are the appender's and the tailers' business): it checks, just before the call, that
 * the mapping is still the appender's current one. Chronicle unmaps a chunk only after the
 * appender has left it, so the call could meet an unmapped or reused range only if the appender
 * left a whole chunk in those microseconds; even then the advice is harmless: it writes nothing,
 * cannot fault the process, and fails on an unmapped range. Where the binding, the kernel or the
 * mapping does not support it, {@link #prefault} does nothing and the appender faults its pages in
 * itself, as without this class.
 * <p>
 * Package-private. Allocation: one small holder per mapping change (each chunk of the log, 16 MiB
 * by default), none per append.
 */
final class PagePrefault
{
    /** Linux's {@code MADV_POPULATE_WRITE}: populate page tables writable, as a write would. */
    private static final int MADV_POPULATE_WRITE = 23;
    private static final long PAGE_SIZE = 4096;
    /** The most pages one advice faults in, so the map lock is never held for longer than that. */
    static final int PAGES_PER_CALL = 64;
    private static final long BYTES_PER_CALL = PAGES_PER_CALL * PAGE_SIZE;

    private final PosixAPI posix;
    /** The appender's mapping and its file, replaced as one by the appending thread. */
    private volatile Mapping mapping;
    /** The appending thread's last published store, to notice a change without a volatile read. */
    private BytesStore<?, ?> published;
    /** Space thread: the mapping it faulted in last and how far. */
    private Mapping faulted;
    private long faultedTo;
    private boolean everWorked;
    /** Set by the space thread, read by the appending thread to stop publishing. */
    private volatile boolean unsupported;
    private volatile long bytesFaulted;

    /**
     * @param posix the native binding, or null where there is none: then nothing is faulted in.
     */
    PagePrefault(final PosixAPI posix)
    {
        this.posix = posix;
        this.unsupported = posix == null;
    }

    /**
     * Publishes the appender's current mapping if it changed since the last call. Appending thread;
     * allocates only when the mapping changed.
     *
     * @param file  the cycle file the appender writes.
     * @param store the store of the appender's bytes (a {@link MappedBytesStore} for a queue file).
     * @return true if a new mapping was published: the space thread should fault its pages in now.
     */
    boolean noteMapping(final File file, final BytesStore<?, ?> store)
    {
        if (store == published || unsupported)
        {
            return false;
        }
        published = store;
        if (!(store instanceof MappedBytesStore))
        {
            return false;
        }
        final MappedBytesStore mapped = (MappedBytesStore)store;
        noteMapping(file, mapped.addressForWrite(mapped.start()), mapped.start(), mapped.safeLimit());
        return true;
    }

    /**
     * Publishes a mapping. Appending thread; allocates one small holder.
     *
     * @param file    the cycle file mapped.
     * @param address the address of file offset {@code start}, on a page boundary.
     * @param start   the file offset the mapping starts at.
     * @param limit   the file offset up to which the appender may write through it.
     */
    void noteMapping(final File file, final long address, final long start, final long limit)
    {
        mapping = new Mapping(file, address, start, limit);
    }

    /**
     * Faults in the pages of {@code [position, end)} of {@code file} that lie in the appender's
     * current mapping and were not faulted in before, {@value #PAGES_PER_CALL} pages per advice,
     * stopping early once the appender has moved to another mapping. Space thread only; allocates
     * nothing.
     *
     * @param file     the file the range belongs to: nothing is done for another file's mapping.
     * @param position the appender's last published write position.
     * @param end      how far disk space is claimed: nothing past it is touched.
     */
    void prefault(final File file, final long position, final long end)
    {
        final Mapping current = mapping;
        if (unsupported || current == null || !current.file.equals(file))
        {
            return;
        }
        if (current != faulted)
        {
            faulted = current;
            faultedTo = 0;
        }
        // Chronicle's chunks start on a page boundary, so page-aligned offsets give aligned addresses.
        final long to = Math.min(end, current.limit) & -PAGE_SIZE;
        long from = Math.max(Math.max(position, faultedTo), current.start) & -PAGE_SIZE;
        while (from < to && mapping == current && !unsupported)
        {
            final long length = Math.min(to - from, BYTES_PER_CALL);
            if (!advise(current.address + (from - current.start), length))
            {
                return;
            }
            from += length;
            faultedTo = from;
            bytesFaulted += length;
        }
    }

    /**
     * One advice over {@code length} bytes at {@code address}; after a first failure on a kernel
     * where it never worked, marks the advice unsupported.
     *
     * @return true if the kernel faulted the range in.
     */
    private boolean advise(final long address, final long length)
    {
        try
        {
            if (posix.madvise(address, length, MADV_POPULATE_WRITE) == 0)
            {
                everWorked = true;
                return true;
            }
            if (!everWorked)
            {
                // A kernel before 5.14 (EINVAL) fails every call: stop asking. A first call that
                // fails for another reason stops it too; the appender then faults its own pages.
                unsupported = true;
            }
        }
        catch (final RuntimeException | LinkageError ex)
        {
            unsupported = true;
        }
        return false;
    }

    /**
     * @return the bytes faulted in so far. Any thread.
     */
    long bytesFaulted()
    {
        return bytesFaulted;
    }

    /**
     * One mapping of one file, published as one: the address of file offset {@code start}, and the
     * end of the range the appender may write through it.
     */
    private record Mapping(File file, long address, long start, long limit)
    {
    }
}
