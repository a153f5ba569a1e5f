package io.ringwatch.persistence;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs for real disk-full tests; mounting needs root, so callers skip when it fails.
 */
final class Tmpfs
{
    private Tmpfs()
    {
    }

    /** Mounts a tmpfs of {@code megabytes} at {@code dir}; returns false if that is not possible here. */
    static boolean mount(final Path dir, final int megabytes)
    {
        return run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
    }

    /** Grows (or shrinks) the mounted tmpfs at {@code dir}, keeping its files. */
    static boolean resize(final Path dir, final int megabytes)
    {
        return run("mount", "-o", "remount,size=" + megabytes + "m", dir.toString());
    }

    /** Bind-mounts the file {@code file} over the existing file {@code onto}; false if not possible here. */
    static boolean bind(final Path file, final Path onto)
    {
        return run("mount", "--bind", file.toString(), onto.toString());
    }

    static void unmount(final Path dir)
    {
        run("umount", "-l", dir.toString());
    }

    private static boolean run(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        }
        catch (final IOException ex)
        {
            return false;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
