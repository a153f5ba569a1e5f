package io.ringwatch.jcstress;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.secondary.IndexMaintainer;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.internal.write.RevisionCursor;
import io.ringwatch.engine.internal.write.WritePipeline;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.concurrent.SystemNanoClock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLI_Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WritePipeline#close()} racing writes: every write either completes (applied, with a revision) or fails
 * with {@link EngineClosedException}; once one is refused every later one is; none hangs; and by the time
 * {@code close()} returns every admitted write has completed. {@code RingWatch.close()} stops its writes with
 * exactly this call before it closes the rest.
 * <p>
 * Closing is what is tested, so each instance needs a pipeline of its own (one writer thread, a 4-slot ring,
 * a 4-key index and a 16-event window): far cheaper than a whole engine, which would add its dispatcher,
 * delivery and housekeeper threads. The writer submits a put of key "a" and then of key "b" (asynchronously:
 * a blocking write that hung would hang the test instead of showing as an outcome). The closer closes the
 * pipeline. The arbiter grades each write (r1, r2): "OK" (completed with a revision), "CLOSED" (refused with
 * {@code EngineClosedException}, on submission or through its future), "LATE" (still pending when close had
 * returned, completed later), "HUNG" (not completed within 10 s), or "FAILED" (any other error); r3 is the
 * number of keys in the index, which must equal the number of OK writes. Then it frees the index.
 * <p>
 * Every jcstress instance is used from the jcstress threads and its own writer thread only. Allocates a
 * pipeline (and starts its thread), an index, a window and two futures per instance.
 */
@JCStressTest
@Description("WritePipeline close vs. writes: each write completes or fails with EngineClosedException, in "
    + "submission order, none hangs, none outlives close().")
@Outcome(id = "OK, OK, 2", expect = ACCEPTABLE, desc = "Both writes were admitted before the close.")
@Outcome(id = "CLOSED, CLOSED, 0", expect = ACCEPTABLE, desc = "The close came before both writes.")
@Outcome(
    id = "OK, CLOSED, 1",
    expect = ACCEPTABLE_INTERESTING,
    desc = "The close came between the two writes: the first was applied, the second refused.")
@Outcome(
    expect = FORBIDDEN,
    desc = "The first write refused but the second admitted; a write LATE (pending after close() returned), "
        + "HUNG or FAILED; or an index whose size does not match the writes that completed.")
@State
public class WritePipelineCloseStress
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
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Nothing follows this window, so the writer has no dispatcher to wake. */
    private static final GatedDoorbell[] NO_WINDOW_READERS = new GatedDoorbell[0];
    private static final Op PUT_A = Op.put("a", "1");
    private static final Op PUT_B = Op.put("b", "2");

    private final OffHeapIndex index = new OffHeapIndex(4);
    private final WatchWindow window = new WatchWindow(WINDOW, SystemNanoClock.INSTANCE);
    private final WritePipeline pipeline = new WritePipeline(
        CONFIG, index, window, new RevisionCursor(0), new IndexMaintainer(window), new UndoLog(1 << 20, 64, 4096), () -> 0, null,
        NO_WINDOW_READERS);
    private CompletableFuture<WriteResult> first;
    private CompletableFuture<WriteResult> second;

    /**
     * Submits the two puts. Writer actor thread.
     */
    @Actor
    public void writer()
    {
        first = submit(PUT_A);
        second = submit(PUT_B);
    }

    /**
     * Closes the pipeline. Closer actor thread.
     */
    @Actor
    public void closer()
    {
        pipeline.close();
    }

    /**
     * Grades both writes, counts the keys, frees the index. Arbiter thread, after both actors (so after close
     * returned).
     *
     * @param result receives the grades (r1, r2) and the key count (r3).
     */
    @Arbiter
    public void finalState(final LLI_Result result)
    {
        final boolean firstDone = first.isDone();
        final boolean secondDone = second.isDone();
        final long deadline = System.nanoTime() + WAIT_NANOS;
        result.r1 = grade(first, firstDone, deadline);
        result.r2 = grade(second, secondDone, deadline);
        result.r3 = (int)index.size();
        index.close();
    }

    private CompletableFuture<WriteResult> submit(final Op op)
    {
        try
        {
            return pipeline.writeAsync(op);
        }
        catch (final EngineClosedException e)
        {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static String grade(final CompletableFuture<WriteResult> write, final boolean doneAtClose, final long deadline)
    {
        try
        {
            write.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return doneAtClose ? "OK" : "LATE";
        }
        catch (final ExecutionException e)
        {
            return !doneAtClose ? "LATE" : e.getCause() instanceof EngineClosedException ? "CLOSED" : "FAILED";
        }
        catch (final TimeoutException e)
        {
            return "HUNG";
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "HUNG";
        }
    }
}
