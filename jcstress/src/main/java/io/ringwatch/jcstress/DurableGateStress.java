package io.ringwatch.jcstress;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.spi.HistoryReader;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.spi.SnapshotSink;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.read.RangeReader;
import io.ringwatch.engine.internal.secondary.IndexMaintainer;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.write.RevisionCursor;
import io.ringwatch.engine.internal.write.WritePipeline;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The SYNC visibility gate: a put through a {@link WritePipeline} over a SYNC journal, against a reader of
 * everything a reader or a watcher follows (the applied revision, the window's published revision, and a
 * point read of the put's key through {@link RangeReader}), and then of the revision the journal has forced.
 * No reader may see a revision before the journal's flush covered it. r1: whether the reader saw the put's
 * key (1) or not (0); r2: 1 when the flushed revision read afterwards covers everything the reader saw, 0
 * when the reader saw a revision not yet flushed.
 * <p>
 * One pipeline per forked JVM (a writer and a journal-stage thread, a 64-slot ring, a 16-event window) over a
 * {@link FlushCountingJournal} whose flush spins a little, so the writer's in-memory work runs well ahead of
 * durability; each instance puts a fresh key, so instances only share the revision counter. A pipeline per
 * instance would leave a dozen samples a second. The pipeline is never closed (its threads are daemons).
 * The quick run on 2 cores: 2.0 million samples, 1,673,893 {@code 0, 1} and 333,079 {@code 1, 1}, none
 * forbidden. Not yet run against a planted bug; {@code DurabilityGateTest} fails when the writer publishes
 * its revisions itself (as before issue 12).
 */
@JCStressTest
@Description("SYNC durability gate: no reader sees revision R before the journal's flush covered R.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Read before the put was visible; nothing unflushed seen.")
@Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "Saw the put, which was durable by then.")
@Outcome(expect = FORBIDDEN, desc = "Saw a revision before the journal's flush covered it.")
@State
public class DurableGateStress
{
    private static final RingWatchConfig CONFIG = RingWatchConfig.builder()
        .writeRingSize(64)
        .maxKeyBytes(16)
        .maxValueBytes(8)
        .build();
    private static final WindowConfig WINDOW = WindowConfig.builder()
        .minCapacity(16)
        .maxCapacity(16)
        .maxEventBytes(32)
        .dataBytesPerEvent(32)
        .build();
    private static final GatedDoorbell[] NO_WINDOW_READERS = new GatedDoorbell[0];
    private static final byte[] VALUE = "1".getBytes();
    private static final AtomicLong KEYS = new AtomicLong();

    private static final OffHeapIndex INDEX = new OffHeapIndex(1 << 16);
    private static final WatchWindow WINDOW_BUFFER = new WatchWindow(WINDOW, SystemNanoClock.INSTANCE);
    private static final RevisionCursor CURSOR = new RevisionCursor(0);
    private static final FlushCountingJournal JOURNAL = new FlushCountingJournal();
    private static final UndoLog UNDO = new UndoLog(1 << 20, 64, 4096);
    private static final RangeReader READER = new RangeReader(INDEX, UNDO, CURSOR, true);
    private static final WritePipeline PIPELINE = new WritePipeline(
        CONFIG, INDEX, WINDOW_BUFFER, CURSOR, new IndexMaintainer(WINDOW_BUFFER), UNDO, () -> 0, JOURNAL, NO_WINDOW_READERS);

    private final byte[] key = ("k" + KEYS.incrementAndGet()).getBytes();
    private final UnsafeBuffer keyBuffer = new UnsafeBuffer(key);
    private final IndexEntry entry = new IndexEntry();

    /**
     * Submits the put. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        PIPELINE.writeAsync(Op.put(key, VALUE));
    }

    /**
     * Reads what readers and watchers follow, then the flushed revision. Reader actor thread.
     *
     * @param result r1: whether the put was seen; r2: whether the flush covered all that was seen.
     */
    @Actor
    public void reader(final II_Result result)
    {
        long seen = Math.max(CURSOR.applied(), WINDOW_BUFFER.publishedRevision());
        final boolean found = READER.get(keyBuffer, 0, key.length, entry);
        if (found)
        {
            seen = Math.max(seen, entry.modRevision());
        }
        result.r1 = found ? 1 : 0;
        result.r2 = JOURNAL.flushedRevision() >= seen ? 1 : 0;
    }

    /** A SYNC journal that keeps nothing but the revision its last flush covered. */
    static final class FlushCountingJournal implements Journal
    {
        private long appended;
        private volatile long flushed;

        long flushedRevision()
        {
            return flushed;
        }

        @Override
        public long lastRevision()
        {
            return appended;
        }

        @Override
        public long firstRevision()
        {
            return 1;
        }

        @Override
        public HistoryReader newReader()
        {
            throw new UnsupportedOperationException("no history in this test");
        }

        @Override
        public void appendRevision(final long revision, final long timestampMillis, final ChangeRecord changes)
        {
            appended = revision;
        }

        @Override
        public void flush()
        {
            // A slow disk: the writer's in-memory work runs ahead meanwhile.
            for (int i = 0; i < 200; i++)
            {
                Thread.onSpinWait();
            }
            flushed = appended;
        }

        @Override
        public long loadSnapshot(final SnapshotSink into)
        {
            return 0;
        }

        @Override
        public boolean isSync()
        {
            return true;
        }

        @Override
        public void compact(final long revision)
        {
        }

        @Override
        public long compactRevision()
        {
            return 0;
        }

        @Override
        public void close()
        {
        }
    }
}
