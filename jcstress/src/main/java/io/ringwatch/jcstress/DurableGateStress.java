package io.ringwatch.jcstress;

import io.ringwatch.engine.RingWatchConfig;
import io.ringwatch.engine.history.HistoryReader;
import io.ringwatch.engine.history.Journal;
import io.ringwatch.engine.history.SnapshotSink;
import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.index.IndexEntry;
import io.ringwatch.engine.index.OffHeapIndex;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.read.RangeReader;
import io.ringwatch.engine.secondary.IndexMaintainer;
import io.ringwatch.engine.write.RevisionCursor;
import io.ringwatch.engine.write.WritePipeline;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The SYNC visibility gate: a put through a {@link WritePipeline} over a SYNC journal, against a reader of
 * everything a reader or a watcher follows (the applied revision, the window's published revision, and a
 * point read of the key through {@link RangeReader}), and then of the revision the journal has forced. No
 * reader may see revision 1 before the journal's flush covered it: r1 is the newest revision the reader saw
 * (0 or 1), r2 the journal's flushed revision read afterwards.
 * <p>
 * Each instance builds its own pipeline (a writer and a journal-stage thread, a 4-slot ring, a 4-key index, a
 * 16-event window) over a {@link FlushCountingJournal} whose flush spins a little, so the writer's in-memory
 * work is well ahead of durability. The arbiter closes the pipeline and frees the index. With the gate
 * removed (the writer publishing its revisions itself, as before issue 12) the quick run shows {@code 1, 0}.
 */
@JCStressTest
@Description("SYNC durability gate: no reader sees revision R before the journal's flush covered R.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Read before anything was durable; nothing seen.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Read before the gate opened; durable by the time r2 was read.")
@Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "Saw revision 1, which was durable.")
@Outcome(expect = FORBIDDEN, desc = "Saw revision 1 before the journal's flush covered it (1, 0).")
@State
public class DurableGateStress
{
    private static final RingWatchConfig CONFIG = RingWatchConfig.builder()
        .writeRingSize(4)
        .maxKeyBytes(8)
        .maxValueBytes(8)
        .build();
    private static final WindowConfig WINDOW = WindowConfig.builder()
        .minCapacity(16)
        .maxCapacity(16)
        .maxEventBytes(24)
        .dataBytesPerEvent(32)
        .build();
    private static final Doorbell[] NO_WINDOW_READERS = new Doorbell[0];
    private static final Op PUT_A = Op.put("a", "1");
    private static final UnsafeBuffer KEY_A = new UnsafeBuffer("a".getBytes());

    private final OffHeapIndex index = new OffHeapIndex(4);
    private final WatchWindow window = new WatchWindow(WINDOW, SystemNanoClock.INSTANCE);
    private final RevisionCursor cursor = new RevisionCursor(0);
    private final FlushCountingJournal journal = new FlushCountingJournal();
    private final RangeReader reader = new RangeReader(index, window, cursor, true);
    private final IndexEntry entry = new IndexEntry();
    private final WritePipeline pipeline = new WritePipeline(
        CONFIG, index, window, cursor, new IndexMaintainer(window), journal, NO_WINDOW_READERS);

    /**
     * Submits the put. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        pipeline.writeAsync(PUT_A);
    }

    /**
     * Reads what readers and watchers follow, then the flushed revision. Reader actor thread.
     *
     * @param result r1: the newest revision seen; r2: the flushed revision, read after.
     */
    @Actor
    public void reader(final JJ_Result result)
    {
        long seen = Math.max(cursor.applied(), window.publishedRevision());
        if (reader.get(KEY_A, 0, 1, entry))
        {
            seen = Math.max(seen, entry.modRevision());
        }
        result.r1 = seen;
        result.r2 = journal.flushedRevision();
    }

    /**
     * Closes the pipeline (completing the put) and frees the index. Arbiter thread.
     *
     * @param result unused.
     */
    @Arbiter
    public void close(final JJ_Result result)
    {
        pipeline.close();
        index.close();
    }

    /** A SYNC journal that keeps nothing but the revision its last flush covered. */
    static final class FlushCountingJournal implements Journal
    {
        private long appended;
        private long current;
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
        public void beginRevision(final long revision, final long timestampMillis)
        {
            current = revision;
        }

        @Override
        public void appendChange(
            final EventType type,
            final DirectBuffer key, final int keyOffset, final int keyLength,
            final DirectBuffer value, final int valueOffset, final int valueLength,
            final long createRevision, final long version,
            final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
            final long prevCreateRevision, final long prevModRevision, final long prevVersion)
        {
        }

        @Override
        public void endRevision()
        {
            appended = current;
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
