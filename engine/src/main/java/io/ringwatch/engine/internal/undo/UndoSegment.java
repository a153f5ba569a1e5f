package io.ringwatch.engine.internal.undo;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One block of the undo area: direct memory the writer appends pre-images to, the position of
 * the undo ring it currently stands for ({@link #sequence()}, {@link #FREE} while pooled) and how
 * many of its bytes are published. Readers check the sequence before and after they read, since
 * a segment may be recycled under them (only once no pinned read needs anything in it).
 * Written by the writer thread; read by any thread.
 */
final class UndoSegment
{
    /** The sequence of a segment that stands for no position of the ring. */
    static final long FREE = -1;

    private static final VarHandle SEQUENCE;
    private static final VarHandle LIMIT;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            SEQUENCE = lookup.findVarHandle(UndoSegment.class, "sequence", long.class);
            LIMIT = lookup.findVarHandle(UndoSegment.class, "limit", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    final UnsafeBuffer buffer;
    /** Writer only: the newest revision with an entry here. */
    long lastRevision;
    @SuppressWarnings("unused")
    private volatile long sequence = FREE;
    @SuppressWarnings("unused")
    private volatile int limit;

    /**
     * @param bytes the segment's size; allocates that much direct memory.
     */
    UndoSegment(final int bytes)
    {
        buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes));
    }

    /**
     * Frees the direct memory now, not at the garbage collector's leisure. Writer thread, once no
     * reader can reach the segment any more.
     */
    void free()
    {
        BufferUtil.free(buffer);
    }

    long sequence()
    {
        return (long)SEQUENCE.getVolatile(this);
    }

    /**
     * Makes the segment stand for {@code sequence} (or {@link #FREE}); stores that follow (the
     * recycled segment's new entries) are not visible before it.
     */
    void assign(final long sequence)
    {
        LIMIT.setRelease(this, 0);
        SEQUENCE.setVolatile(this, sequence);
        VarHandle.releaseFence();
        lastRevision = 0;
    }

    int limit()
    {
        return (int)LIMIT.getAcquire(this);
    }

    void publish(final int limit)
    {
        LIMIT.setRelease(this, limit);
    }
}
