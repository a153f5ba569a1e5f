package io.ringwatch.replay;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.SnapshotWriter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes a revision log through the persistence API directly, one change per revision, keeping
 * a model of the state: for logs an engine would not write in a test (starting past revision 1,
 * or with a snapshot caught mid-history).
 */
final class HandWrittenLog implements AutoCloseable
{
    static final long BASE_NANOS = 1_700_000_000_000_000_000L;

    private final RevisionLog log;
    private final TreeMap<String, KeyState> model;
    private long revision;

    /**
     * @param directory     the data directory.
     * @param firstRevision the first revision to write.
     * @param before        the state before it (keys written before the log's retained start).
     */
    HandWrittenLog(final Path directory, final long firstRevision, final Map<String, KeyState> before)
    {
        log = RevisionLog.open(LogConfig.builder(directory).snapshotsToKeep(8).build());
        model = new TreeMap<>(before);
        revision = firstRevision - 1;
    }

    static KeyState state(final String key, final String value, final long create, final long mod, final long version)
    {
        return new KeyState(utf8(key), utf8(value), create, mod, version);
    }

    long put(final String key, final String value)
    {
        final long next = ++revision;
        final KeyState prev = model.get(key);
        final KeyState after = state(key, value, prev == null ? next : prev.createRevision(), next,
            prev == null ? 1 : prev.version() + 1);
        log.beginRevision(next, BASE_NANOS + next * 1_000_000L);
        append(ChangeType.PUT, key, after, prev);
        log.endRevision();
        model.put(key, after);
        return next;
    }

    long delete(final String key)
    {
        final long next = ++revision;
        final KeyState prev = model.remove(key);
        log.beginRevision(next, BASE_NANOS + next * 1_000_000L);
        append(ChangeType.DELETE, key, null, prev);
        log.endRevision();
        return next;
    }

    Map<String, KeyState> state()
    {
        return new TreeMap<>(model);
    }

    /**
     * Commits a snapshot claiming revision {@code at} but holding {@code entries}.
     */
    void snapshot(final long at, final Map<String, KeyState> entries)
    {
        try (SnapshotWriter writer = log.snapshotWriter(at))
        {
            for (final KeyState entry : entries.values())
            {
                writer.append(new UnsafeBuffer(entry.key()), 0, entry.key().length,
                    new UnsafeBuffer(entry.value()), 0, entry.value().length,
                    entry.createRevision(), entry.modRevision(), entry.version());
            }
            writer.commit();
        }
    }

    @Override
    public void close()
    {
        log.close();
    }

    private void append(final byte type, final String key, final KeyState after, final KeyState prev)
    {
        final UnsafeBuffer keyBuffer = new UnsafeBuffer(utf8(key));
        final UnsafeBuffer value = new UnsafeBuffer(after == null ? new byte[0] : after.value());
        final UnsafeBuffer prevValue = new UnsafeBuffer(prev == null ? new byte[0] : prev.value());
        log.appendChange(type, keyBuffer, 0, keyBuffer.capacity(), value, 0, value.capacity(),
            after == null ? 0 : after.createRevision(), after == null ? 0 : after.modRevision(), after == null ? 0 : after.version(),
            prevValue, 0, prevValue.capacity(),
            prev == null ? 0 : prev.createRevision(), prev == null ? 0 : prev.modRevision(), prev == null ? 0 : prev.version());
    }

    private static byte[] utf8(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
