package io.ringwatch.engine.internal.index;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

import io.ringwatch.engine.internal.thread.Joins;
import org.agrona.BufferUtil;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * Makes an index's next arena chunks on a thread of its own ({@value #THREAD_NAME}) while recovery
 * fills the index: fresh direct memory costs a page fault per page and a zeroing pass on first
 * touch (a fifth of a replay's applies at 1 M keys), which this moves off the applying thread. It
 * keeps up to {@value #READY_CHUNKS} zeroed chunks of the arena's ordinary size ready; the arena
 * takes one when it needs a chunk and allocates its own when none is ready, so the index behaves
 * the same whether or not the thread keeps up.
 * <p>
 * Lifecycle: {@link OffHeapIndex#prefaultChunks} starts it; {@link #close} stops the thread, waits
 * for it, detaches it from the arena and frees the chunks left ready, so neither the thread nor its
 * memory outlives recovery. A chunk the thread cannot allocate (no direct memory left) ends the
 * thread quietly: the arena's own allocation then meets the same shortage and reports it.
 * <p>
 * Threads: {@link #take} the index's writer (the opening thread during recovery) only;
 * {@link #close} the same thread. Allocation: the thread and a small queue once, then one direct
 * buffer per chunk on the prefault thread.
 */
public final class ChunkPrefault implements AutoCloseable
{
    /** Name of the thread that makes the chunks. */
    public static final String THREAD_NAME = "ringwatch-recovery-prefault";
    /** Chunks kept ready: enough to cover a burst of inserts, few enough that the unused rest is small. */
    static final int READY_CHUNKS = 8;
    /** Longest park while every chunk is ready: {@link #take} wakes the thread sooner. */
    private static final long PARK_NANOS = 1_000_000;

    private final OneToOneConcurrentArrayQueue<ByteBuffer> ready = new OneToOneConcurrentArrayQueue<>(READY_CHUNKS);
    private final int chunkSize;
    private final Thread thread;
    private final BlockArena arena;
    private volatile boolean running = true;
    private boolean closed;

    ChunkPrefault(final BlockArena arena, final int chunkSize)
    {
        this.arena = arena;
        this.chunkSize = chunkSize;
        thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    private void run()
    {
        try
        {
            while (running)
            {
                if (ready.size() < READY_CHUNKS)
                {
                    // allocateDirect zeroes the memory: this thread takes the page faults.
                    final ByteBuffer chunk = ByteBuffer.allocateDirect(chunkSize);
                    if (!ready.offer(chunk))
                    {
                        BufferUtil.free(chunk);
                    }
                }
                else
                {
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
            }
        }
        catch (final OutOfMemoryError noDirectMemory)
        {
            // The arena allocates for itself from now on and meets the shortage there.
            running = false;
        }
    }

    /**
     * A zeroed chunk made ahead, and a wake-up for the thread to make the next; the arena's writer
     * thread only.
     *
     * @param size the chunk size the arena needs.
     * @return a zeroed direct buffer of {@code size} bytes, or null if none is ready (or the size is
     * not the ordinary chunk size).
     */
    ByteBuffer take(final int size)
    {
        if (size != chunkSize)
        {
            return null;
        }
        final ByteBuffer chunk = ready.poll();
        if (chunk != null)
        {
            LockSupport.unpark(thread);
        }
        return chunk;
    }

    /**
     * @return whether the prefault thread is still running; for tests.
     */
    boolean isThreadAlive()
    {
        return thread.isAlive();
    }

    /**
     * Detaches from the arena, stops the thread, waits for it to end and frees the chunks still
     * ready. Idempotent; the thread that started it. An interrupt while waiting is kept for the
     * caller.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        arena.prefault(null);
        running = false;
        LockSupport.unpark(thread);
        Joins.joinUninterruptibly(thread);
        ByteBuffer chunk;
        while ((chunk = ready.poll()) != null)
        {
            BufferUtil.free(chunk);
        }
    }
}
