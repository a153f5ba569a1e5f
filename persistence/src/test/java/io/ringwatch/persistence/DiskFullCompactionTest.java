package io.ringwatch.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The disk fills up with someone else's files (the engine's own appends still have the space it
 * claimed ahead) and then the user compacts, as etcd's periodic compactor does: the compaction
 * must either be recorded or be refused with one of the engine's typed errors
 * ({@code io.ringwatch.engine.errors}), change nothing when refused, and once space is freed
 * compact and reopen with every acknowledged write and the compaction point recorded.
 */
class DiskFullCompactionTest
{
    @RegisterExtension
    final SmallTmpfs tmpfs = new SmallTmpfs();

    private RingWatchConfig config()
    {
        return RingWatchConfig.builder()
            .persistence(LogConfig.builder(tmpfs.log()).blockSize(1 << 20).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0)
            .build();
    }

    @Test
    void aCompactionOnAFullDiskIsRefusedTypedAndChangesNothing() throws IOException
    {
        final Path filler = tmpfs.mount().resolve("someone-elses-file");
        final Map<String, String> state = new TreeMap<>();
        final long compacted;
        try (RingWatch engine = RingWatch.open(config()))
        {
            for (int i = 0; i < 50; i++)
            {
                engine.put("k" + i % 10, "v" + i);
                state.put("k" + i % 10, "v" + i);
            }
            fill(filler);
            final long before = engine.compactRevision();
            final long at = engine.currentRevision() - 5;
            try
            {
                engine.compact(at);
                assertEquals(at, engine.compactRevision());
            }
            catch (final RingWatchException refused)
            {
                assertEquals(before, engine.compactRevision(), "a refused compaction changed the point");
            }
            catch (final RuntimeException untyped)
            {
                throw new AssertionError("the compaction failed with an error outside the engine's errors", untyped);
            }
            Files.delete(filler);
            engine.compact(at + 1);
            compacted = at + 1;
            assertEquals(compacted, engine.compactRevision());
            engine.put("after", "1");
            state.put("after", "1");
        }
        try (RingWatch engine = RingWatch.open(config()))
        {
            assertEquals(compacted, engine.compactRevision());
            final Map<String, String> recovered = new TreeMap<>();
            for (final KeyValue kv : engine.range(KeyRange.all(), 0).kvs())
            {
                recovered.put(kv.keyAsString(), kv.valueAsString());
            }
            assertEquals(state, recovered);
        }
        try (RevisionLog log = RevisionLog.openReadOnly(tmpfs.log()))
        {
            assertTrue(log.verify().ok(), () -> log.verify().problem());
        }
    }

    @Test
    void aRefusedCompactionLeavesALogThatReopensOnceThereIsRoom() throws IOException
    {
        final Path filler = tmpfs.mount().resolve("someone-elses-file");
        final long revision;
        try (RingWatch engine = RingWatch.open(config()))
        {
            for (int i = 0; i < 20; i++)
            {
                engine.put("k" + i, "v" + i);
            }
            revision = engine.currentRevision();
            fill(filler);
            try
            {
                engine.compact(revision - 1);
            }
            catch (final RingWatchException refused)
            {
                // Typed; what the first test checks.
            }
        }
        Files.delete(filler);
        try (RingWatch engine = RingWatch.open(config()))
        {
            assertEquals(revision, engine.currentRevision());
            assertEquals("v19", engine.get("k19").orElseThrow().valueAsString());
            engine.compact(revision);
            engine.put("after", "1");
        }
    }

    /** Writes a file until the file system has no byte left. */
    private static void fill(final Path file) throws IOException
    {
        final byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file))
        {
            while (true)
            {
                out.write(block);
                out.flush();
            }
        }
        catch (final IOException full)
        {
            assertTrue(full.getMessage() == null || full.getMessage().contains("space"), full.toString());
        }
        // A last byte or two that fit in a partial block.
        try (OutputStream out = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND))
        {
            while (true)
            {
                out.write(0);
                out.flush();
            }
        }
        catch (final IOException full)
        {
            // Full.
        }
    }
}
