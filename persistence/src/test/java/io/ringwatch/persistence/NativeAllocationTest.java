package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NativeAllocation} on Linux: fallocate really reserves (a no-op binding would leave the
 * file as it was) and never changes bytes already written; on a full file system it reports no
 * claim and {@link DiskSpace#SYSTEM} fails with an {@link IOException}.
 */
class NativeAllocationTest
{
    @TempDir
    Path dir;

    @Test
    void fallocateExtendsTheFileAndKeepsWhatItHolds() throws IOException
    {
        assumeLinux();
        final Path file = Files.write(dir.resolve("f"), new byte[] {1, 2, 3, 4});

        assertTrue(NativeAllocation.allocate(file, 0, 1024 * 1024), "fallocate is available on Linux file systems here");

        assertEquals(1024 * 1024, Files.size(file));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer head = ByteBuffer.allocate(8);
            channel.read(head, 0);
            assertEquals(0x01020304_00000000L, head.getLong(0));
        }
    }

    @Test
    void aFullFileSystemFailsTheSystemClaimWithAnIoException() throws IOException
    {
        assumeLinux();
        final Path mount = Files.createDirectories(dir.resolve("tmpfs"));
        assumeTrue(Tmpfs.mount(mount, 1), "cannot mount a 1 MiB tmpfs here (needs root): skipped");
        try
        {
            final Path file = Files.createFile(mount.resolve("f"));
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
            {
                assertFalse(NativeAllocation.allocate(file, 0, 8 * 1024 * 1024));
                assertThrows(IOException.class, () -> DiskSpace.SYSTEM.allocate(file, channel, 0, 8 * 1024 * 1024));
                assertTrue(NativeAllocation.allocate(file, 0, 64 * 1024), "a claim that fits succeeds");
            }
        }
        finally
        {
            Tmpfs.unmount(mount);
        }
    }

    private static void assumeLinux()
    {
        assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"), "fallocate is Linux only");
    }
}
