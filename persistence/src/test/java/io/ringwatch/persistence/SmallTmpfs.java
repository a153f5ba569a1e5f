package io.ringwatch.persistence;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An 8 MiB tmpfs mounted before each test and unmounted after it, for real disk-full tests; the
 * test is skipped, with the reason, where it cannot be mounted (mounting needs root). Register it
 * with {@code @RegisterExtension}; {@link #mount()} is the mount point, {@link #log()} a log
 * directory on it (not created).
 */
final class SmallTmpfs implements BeforeEachCallback, AfterEachCallback
{
    private static final int MEGABYTES = 8;

    private Path parent;
    private Path mount;

    /** The mount point, during a test. */
    Path mount()
    {
        return mount;
    }

    /** A log directory on the tmpfs, during a test: what the log's writer creates. */
    Path log()
    {
        return mount.resolve("log");
    }

    @Override
    public void beforeEach(final ExtensionContext context) throws IOException
    {
        parent = Files.createTempDirectory("ringwatch-tmpfs-");
        mount = Files.createDirectories(parent.resolve("tmpfs"));
        assumeTrue(Tmpfs.mount(mount, MEGABYTES),
            "cannot mount an 8 MiB tmpfs here (needs root): the real disk-full test is skipped");
    }

    @Override
    public void afterEach(final ExtensionContext context) throws IOException
    {
        Tmpfs.unmount(mount);
        try (Stream<Path> paths = Files.walk(parent))
        {
            for (final Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.deleteIfExists(path);
            }
        }
    }
}
