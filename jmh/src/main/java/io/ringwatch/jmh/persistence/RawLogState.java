package io.ringwatch.jmh.persistence;

import io.ringwatch.jmh.engine.AckWindow;
import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/**
 * Baseline "raw log": the persistence module's {@link RevisionLog} driven directly on the benchmark
 * thread, writing for each put exactly the excerpt the engine's writer writes (an update of a
 * {@value LogWorkload#KEY_BYTES}-byte key with its {@value LogWorkload#VALUE_BYTES}-byte value and the
 * previous value, with the key's real revisions and version), and nothing else: no ring, no index,
 * no window. SYNC forces the log to disk every {@link #syncEvery} appends: by default
 * {@value AckWindow#WINDOW}, the largest group commit the engine's producers allow; give it the mean
 * forced batch a SYNC engine run reports ({@link io.ringwatch.jmh.engine.WriteEngineState}) to compare
 * at the engine's batch size.
 * <p>
 * Opened per iteration in a fresh directory after every key was written once (as the engine's log
 * holds them), deleted after it. Used by one JMH worker thread; {@link #append()} allocates nothing.
 */
@State(Scope.Thread)
public class RawLogState
{
    /** ASYNC, or SYNC with a flush every {@link #syncEvery} appends. */
    @Param({"ASYNC", "SYNC"})
    public LogConfig.Durability durability;

    /** SYNC only: appends per flush (the group commit's size), at least 1. */
    @Param({"" + AckWindow.WINDOW})
    public int syncEvery;

    private final LogWorkload workload = new LogWorkload();
    private final long[] createRevision = new long[LogWorkload.KEY_COUNT];
    private final long[] modRevision = new long[LogWorkload.KEY_COUNT];
    private final long[] version = new long[LogWorkload.KEY_COUNT];
    private Path directory;
    private RevisionLog log;
    private long revision;
    private int untilSync;

    /**
     * Opens the log in a fresh directory and records every key's creation. The worker thread, before
     * each iteration; allocates the log.
     */
    @Setup(Level.Iteration)
    public void open()
    {
        directory = ScratchDirectory.create("raw-log-");
        log = RevisionLog.open(LogConfig.builder(directory).durability(durability).build());
        revision = 0;
        for (int i = 0; i < LogWorkload.KEY_COUNT; i++)
        {
            final int position = workload.next();
            final long created = ++revision;
            log.beginRevision(created, System.currentTimeMillis() * 1_000_000L);
            log.appendChange(ChangeType.PUT, workload.keys(), LogWorkload.keyOffset(position), LogWorkload.KEY_BYTES,
                workload.value(), 0, LogWorkload.VALUE_BYTES, created, created, 1, null, 0, 0, 0, 0, 0);
            log.endRevision();
            createRevision[position] = created;
            modRevision[position] = created;
            version[position] = 1;
        }
        log.flush();
        untilSync = SyncCount.check(syncEvery);
    }

    /**
     * Appends the next put's revision. Worker thread; allocates nothing.
     *
     * @return the revision appended.
     */
    public long append()
    {
        final int position = workload.next();
        final long current = ++revision;
        final long created = createRevision[position];
        log.beginRevision(current, System.currentTimeMillis() * 1_000_000L);
        log.appendChange(ChangeType.PUT, workload.keys(), LogWorkload.keyOffset(position), LogWorkload.KEY_BYTES,
            workload.value(), 0, LogWorkload.VALUE_BYTES, created, current, version[position] + 1,
            workload.value(), 0, LogWorkload.VALUE_BYTES, created, modRevision[position], version[position]);
        log.endRevision();
        modRevision[position] = current;
        version[position]++;
        if (--untilSync == 0)
        {
            log.flush();
            untilSync = syncEvery;
        }
        return current;
    }

    /**
     * Closes the log and deletes its directory. The worker thread, after each iteration.
     */
    @TearDown(Level.Iteration)
    public void close()
    {
        try
        {
            log.close();
        }
        finally
        {
            ScratchDirectory.delete(directory);
        }
    }
}
