package io.ringwatch.engine.internal.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.SnapshotCorruptedException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A damaged newest snapshot (empty, cut short, a bit flipped in its header, an entry or its
 * trailer): a reopen never loads a wrong state silently. It either refuses with the typed
 * {@link SnapshotCorruptedException} somewhere in its cause chain, or opens with exactly the state
 * the writes made.
 */
class DamagedSnapshotTest
{
    private static final int KEYS = 50;

    @TempDir
    Path dir;

    private RingWatch open()
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build()).build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "half", "last-byte", "header-revision", "entry", "trailer-count"})
    void aDamagedNewestSnapshotIsRefusedTypedOrTheStateIsExact(final String damage) throws IOException
    {
        final TreeMap<String, String> expected = new TreeMap<>();
        for (int session = 0; session < 2; session++)
        {
            try (RingWatch engine = open())
            {
                for (int i = 0; i < 3 * KEYS; i++)
                {
                    engine.put("k" + i % KEYS, "v" + session + "-" + i);
                    expected.put("k" + i % KEYS, "v" + session + "-" + i);
                }
            }
        }
        final Path newest = newestSnapshot();
        final long size = Files.size(newest);
        try (FileChannel channel = FileChannel.open(newest, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            switch (damage)
            {
                case "empty" -> channel.truncate(0);
                case "half" -> channel.truncate(size / 2);
                case "last-byte" -> channel.truncate(size - 1);
                case "header-revision" -> flip(channel, 8);
                case "entry" -> flip(channel, size / 2);
                case "trailer-count" -> flip(channel, size - 8);
                default -> fail(damage);
            }
        }
        try (RingWatch engine = open())
        {
            assertEquals(expected, state(engine.range(KeyRange.all(), 0).kvs()), "opened over a damaged snapshot (" + damage + ")");
        }
        catch (final RuntimeException refused)
        {
            Throwable cause = refused;
            while (cause != null && !(cause instanceof SnapshotCorruptedException))
            {
                cause = cause.getCause();
            }
            assertTrue(cause != null, "refused without a SnapshotCorruptedException: " + refused);
        }
    }

    private Path newestSnapshot() throws IOException
    {
        try (Stream<Path> files = Files.list(dir.resolve("snapshots")))
        {
            final List<Path> snapshots = files.filter(f -> f.toString().endsWith(".snap")).sorted().toList();
            assertEquals(2, snapshots.size(), "a snapshot per close: " + snapshots);
            return snapshots.get(1);
        }
    }

    private static void flip(final FileChannel channel, final long at) throws IOException
    {
        final ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, at);
        one.put(0, (byte)(one.get(0) ^ 0x10)).rewind();
        channel.write(one, at);
    }

    private static TreeMap<String, String> state(final List<KeyValue> kvs)
    {
        final TreeMap<String, String> state = new TreeMap<>();
        for (final KeyValue kv : kvs)
        {
            state.put(kv.keyAsString(), new String(kv.value(), StandardCharsets.UTF_8));
        }
        return state;
    }
}
