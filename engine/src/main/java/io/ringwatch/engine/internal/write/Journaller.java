package io.ringwatch.engine.internal.write;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.internal.thread.Joins;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.stats.TimingCounter;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.PaddedSequence;
import io.ringwatch.ringbuffer.WatchWindow;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.locks.LockSupport;

/**
 * The journal stage of the write pipeline, LMAX's journaller: its own thread
 * ({@code <engine name>-journal}) and its own sequence, following the writer over the same ring
 * slots. The writer hands over the slots it has applied (each holding its revision's
 * {@link ChangeRecord}); this stage appends each revision to the {@link Journal}, and only then
 * completes the slot's write, so a slow disk delays acknowledgements but never the writer's
 * in-memory work (producers wait only once the ring is full, since the ring reuses a slot only
 * after this stage passed it). The slots it takes in one go are one journal batch
 * ({@link Journal#beginBatch}/{@link Journal#endBatch}), so per-revision work the journal can share
 * (the Chronicle log's clock read) is done once per batch.
 * <ul>
 * <li>ASYNC: each write is acknowledged once its revision is appended; {@code durable} follows
 *     the appends. Watchers and readers may run ahead of the append. While writes keep coming the
 *     thread naps between batches instead of arming its doorbell ({@link JournalNaps}), so the
 *     writer hands over without an unpark system call and this thread wakes less often than once
 *     per writer batch; a lone write is appended as soon as it is handed over. An acknowledgement
 *     may wait out a nap.</li>
 * <li>SYNC: at the end of each batch the journal is flushed once (group commit); then the durable
 *     cursor, the window's published cursor and the applied revision move to the batch's last
 *     revision (the visibility gate: no watcher or reader sees a revision before it is durable),
 *     the dispatchers are woken, and the batch's writes are acknowledged.</li>
 * </ul>
 * A journal failure (a typed exception from the journal: full disk, I/O error; or an {@link Error}
 * from it, such as the {@link InternalError} of a mapped page the disk cannot back) fails that write
 * and every later one with {@link JournalFailedException}; earlier writes of the batch are forced
 * and acknowledged first if the journal still can. The writer refuses every command from then
 * on; once it has stopped, this stage rolls the index back to the durable revision with the
 * pre-images the slots carry ({@link IndexRollback}), so reads serve exactly what the log holds.
 * Allocation: none per revision in steady state.
 */
final class Journaller implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(Journaller.class);

    private final Journal journal;
    private final boolean sync;
    /** ASYNC: nap or doorbell between batches. */
    private final JournalNaps naps;
    private final RingBuffer<WriteCommand> ring;
    private final WatchWindow window;
    private final RevisionCursor cursor;
    private final GatedDoorbell[] windowReaders;
    private final IndexRollback rollback;
    private final WakeableIdleStrategy idle = new WakeableIdleStrategy();
    /** This stage's progress over the ring: the ring reuses a slot only once it passed it. */
    private final Sequence sequence = new Sequence(-1);
    /** The last slot the writer has applied and handed over. */
    private final PaddedSequence handed = new PaddedSequence(-1);
    private final WriteCommand[] pending;
    private final Thread thread;
    /**
     * Metrics, written by this stage's thread only: two clock reads per batch of appends (not per
     * append: at 200,000 writes/s the clock was a tenth of this thread's samples), two per flush.
     */
    private final TimingCounter appends = new TimingCounter();
    private final TimingCounter flushes = new TimingCounter();
    private int pendingCount;
    /** Revisions appended since the start; the append timer counts them batch by batch. */
    private long appendedCount;
    private long appendedRevision;
    /** SYNC: lease records appended since the last flush (a batch of grants alone still needs one). */
    private boolean leaseRecordsUnflushed;
    private long appendedWindowSequence = -1;
    private long durableRevision;
    private volatile JournalFailedException failure;
    private volatile boolean stopping;

    Journaller(
        final String threadName,
        final Journal journal,
        final RingBuffer<WriteCommand> ring,
        final WatchWindow window,
        final RevisionCursor cursor,
        final GatedDoorbell[] windowReaders,
        final IndexRollback rollback)
    {
        this.journal = journal;
        this.sync = journal.isSync();
        this.naps = new JournalNaps(!sync, ring.getBufferSize());
        this.ring = ring;
        this.window = window;
        this.cursor = cursor;
        this.windowReaders = windowReaders.clone();
        this.rollback = rollback;
        this.pending = sync ? new WriteCommand[ring.getBufferSize()] : null;
        this.durableRevision = cursor.durable();
        this.appendedRevision = durableRevision;
        this.thread = new Thread(this, threadName);
        thread.setDaemon(true);
        if (sync)
        {
            cursor.gatedBy(thread);
        }
    }

    /**
     * @return this stage's sequence, to gate the ring's producers on.
     */
    Sequence sequence()
    {
        return sequence;
    }

    /**
     * @return the time spent on batches of appends, one operation per revision appended: each
     * recording covers a batch's appends and, in ASYNC mode, the acknowledgements completed
     * after each append (SYNC acknowledges after the flush, which {@link #flushes()} times).
     */
    TimingCounter appends()
    {
        return appends;
    }

    /**
     * @return the time spent forcing the journal to disk (SYNC only), one operation per flush.
     */
    TimingCounter flushes()
    {
        return flushes;
    }

    /**
     * @return true when a SYNC journal gates visibility: the writer then publishes nothing itself.
     */
    boolean gatesVisibility()
    {
        return sync;
    }

    /**
     * @return the failure that stopped the journal, or null while it works. Any thread.
     */
    JournalFailedException failure()
    {
        return failure;
    }

    /**
     * @return true on the journal stage's thread, where write completions run.
     */
    boolean isJournalThread()
    {
        return Thread.currentThread() == thread;
    }

    /** Starts the stage's thread. */
    void start()
    {
        thread.start();
    }

    /**
     * Hands over every slot up to {@code sequence}: the writer is done with them. Writer thread;
     * allocates nothing.
     *
     * @param sequence the last slot applied.
     */
    void hand(final long sequence)
    {
        handed.set(sequence);
        idle.doorbell().ring();
    }

    /**
     * Processes every slot handed over, then stops the thread. Call once the writer has stopped.
     */
    void close()
    {
        stopping = true;
        idle.doorbell().ring();
        Joins.joinUninterruptibly(thread);
    }

    @Override
    public void run()
    {
        long next = sequence.get() + 1;
        while (true)
        {
            final long available = handed.get();
            if (available < next)
            {
                if (stopping && handed.get() < next)
                {
                    return;
                }
                if (naps.napNow())
                {
                    // Unarmed: the writer's ring finds no sleeper and costs it no system call.
                    LockSupport.parkNanos(this, naps.napNanos());
                }
                else
                {
                    idle.idle(0);
                }
                continue;
            }
            idle.reset();
            final long appendedBefore = appendedCount;
            final long start = System.nanoTime();
            naps.afterBatch(available - next + 1, start);
            beginBatch();
            try
            {
                for (long s = next; s <= available; s++)
                {
                    onCommand(ring.get(s));
                }
            }
            finally
            {
                journal.endBatch();
            }
            if (appendedCount != appendedBefore)
            {
                appends.record(appendedCount - appendedBefore, System.nanoTime() - start);
            }
            endOfBatch();
            sequence.set(available);
            next = available + 1;
        }
    }

    /** Opens the journal's batch; a journal that cannot fails the stage as an append would. */
    private void beginBatch()
    {
        if (failure != null)
        {
            return;
        }
        try
        {
            journal.beginBatch();
        }
        catch (final RuntimeException | Error e)
        {
            fail("opening a batch", e);
        }
    }

    private void onCommand(final WriteCommand command)
    {
        // An end goes to the lease log before the revision deleting its keys: recovery holds an end
        // only with that revision, so a failure or a crash between the two leaves neither.
        final boolean endFirst = command.leaseRecord == WriteCommand.LEASE_ENDED;
        if (failure == null && endFirst)
        {
            recordLease(command);
        }
        if (failure == null && command.journalRevision != 0)
        {
            append(command);
        }
        if (failure == null && !endFirst && command.leaseRecord != WriteCommand.NO_LEASE_RECORD)
        {
            recordLease(command);
        }
        if (failure != null && command.resultError == null)
        {
            command.resultError = failure;
        }
        if (sync && failure == null)
        {
            pending[pendingCount++] = command;
        }
        else
        {
            command.complete();
        }
    }

    private void append(final WriteCommand command)
    {
        final long revision = command.journalRevision;
        try
        {
            journal.appendRevision(revision, command.timestampMillis, command.changes);
        }
        catch (final RuntimeException | Error e)
        {
            // An Error too: a mapped page the file system cannot back surfaces as InternalError,
            // and this thread must live on to refuse and complete every later write.
            if (sync)
            {
                // The batch's earlier revisions are in the log: make them durable if it still can.
                settle();
            }
            fail("recording revision " + revision, e);
            return;
        }
        appendedCount++;
        appendedRevision = revision;
        appendedWindowSequence = command.windowSequence;
        if (!sync)
        {
            durableRevision = revision;
            cursor.markDurable(revision);
        }
    }

    /** A grant, or an end before the revision that deletes its keys: the lease table's own records. */
    private void recordLease(final WriteCommand command)
    {
        try
        {
            if (command.leaseRecord == WriteCommand.LEASE_GRANTED)
            {
                journal.recordLeaseGrant(command.leaseRecordId, command.leaseRecordTtlSeconds);
            }
            else
            {
                journal.recordLeaseRevoke(command.leaseRecordId, command.journalRevision);
            }
            leaseRecordsUnflushed = true;
        }
        catch (final RuntimeException | Error e)
        {
            if (sync)
            {
                settle();
            }
            fail("recording lease " + command.leaseRecordId, e);
        }
    }

    private void endOfBatch()
    {
        if (sync)
        {
            settle();
        }
    }

    /** SYNC: forces the batch to disk once, opens the gate up to it, and acknowledges its writes. */
    private void settle()
    {
        if (failure == null && (appendedRevision > durableRevision || leaseRecordsUnflushed))
        {
            try
            {
                final long start = System.nanoTime();
                journal.flush();
                leaseRecordsUnflushed = false;
                flushes.record(1, System.nanoTime() - start);
                makeVisible();
            }
            catch (final RuntimeException | Error e)
            {
                fail("forcing the revision log to disk", e);
            }
        }
        final JournalFailedException failed = failure;
        for (int i = 0; i < pendingCount; i++)
        {
            final WriteCommand command = pending[i];
            if (failed != null && command.resultError == null)
            {
                command.resultError = failed;
            }
            command.complete();
            pending[i] = null;
        }
        pendingCount = 0;
    }

    private void makeVisible()
    {
        final long revision = appendedRevision;
        durableRevision = revision;
        cursor.markDurable(revision);
        window.publish(appendedWindowSequence, revision);
        cursor.markApplied(revision);
        GatedDoorbell.ringAll(windowReaders);
    }

    private void fail(final String what, final Throwable cause)
    {
        failure = new JournalFailedException(
            "the revision log failed " + what + "; the engine refuses writes: " + cause, cause);
        LOG.error("{}: the revision log failed {}; writes are refused from now on, the index rolls back to revision {}",
            thread.getName(), what, durableRevision, cause);
        rollBack();
    }

    /**
     * Waits until the writer has handed over every slot claimed so far (after seeing the failure
     * it changes nothing, and a slot claimed later is applied after the failure was published),
     * then undoes, newest first, every revision after the durable one. Those slots are still
     * intact: this stage has not passed them, so no producer can reuse them.
     */
    private void rollBack()
    {
        long last;
        while ((last = handed.get()) != ring.getCursor())
        {
            LockSupport.parkNanos(1_000);
        }
        cursor.beginRollback();
        try
        {
            for (long s = last; s > sequence.get(); s--)
            {
                final WriteCommand command = ring.get(s);
                if (command.journalRevision > durableRevision)
                {
                    rollback.undo(command.changes);
                }
            }
        }
        finally
        {
            cursor.endRollback(durableRevision);
        }
    }
}
