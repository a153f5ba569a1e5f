package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How the log learns about and claims disk space before its memory-mapped appender touches new
 * pages. A mapped page the file system cannot back raises SIGBUS, which the JVM reports as an
 * {@link InternalError} at an arbitrary point of the write; claiming the space first turns a full
 * disk into an {@link IOException} before anything is mapped.
 * <p>
 * {@link #SYSTEM} is the real implementation; tests pass one that runs out of space on demand to
 * drive the same code paths on any machine. Called under the log's claim lock, on its appending
 * thread or its space thread (and the opening thread); implementations need not be thread-safe
 * for one log.
 */
public interface DiskSpace
{
    /**
     * The file system's view: {@link java.nio.file.FileStore#getUsableSpace()}, and claims through
     * {@link NativeAllocation fallocate(2)} where the platform has it (blocks reserved, nothing
     * written: the cost does not grow with the bytes claimed and the page cache gets no second
     * copy of the log to write back), else through writes of zeros.
     */
    DiskSpace SYSTEM = new DiskSpace()
    {
        private static final int ZEROS = 64 * 1024;
        private final ByteBuffer zeros = ByteBuffer.allocateDirect(ZEROS);

        @Override
        public long usableBytes(final Path directory) throws IOException
        {
            return Files.getFileStore(directory).getUsableSpace();
        }

        @Override
        public void allocate(final Path file, final FileChannel channel, final long position, final long length)
            throws IOException
        {
            if (NativeAllocation.allocate(file, position, length))
            {
                return;
            }
            writeZeros(channel, position, length);
        }

        private void writeZeros(final FileChannel channel, final long position, final long length) throws IOException
        {
            synchronized (zeros)
            {
                for (long done = 0; done < length; )
                {
                    zeros.clear().limit((int)Math.min(ZEROS, length - done));
                    done += channel.write(zeros, position + done);
                }
            }
        }
    };

    /**
     * Bytes still usable on the file system holding {@code directory}.
     *
     * @param directory the data directory.
     * @return usable bytes.
     * @throws IOException if the file system cannot be queried.
     */
    long usableBytes(Path directory) throws IOException;

    /**
     * Makes the file system back {@code [position, position + length)} of {@code file}, which
     * holds only zeros there (space the appender has not reached yet), without changing a byte
     * the file holds.
     *
     * @param file     the queue file.
     * @param channel  a writable channel on {@code file}.
     * @param position the first byte.
     * @param length   how many bytes.
     * @throws IOException if the space cannot be had (for example ENOSPC).
     */
    void allocate(Path file, FileChannel channel, long position, long length) throws IOException;
}
