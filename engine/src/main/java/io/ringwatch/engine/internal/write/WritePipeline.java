package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.direct.WriteCallback;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.DuplicateKeyException;
import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.lease.LeaseRecovery;
import io.ringwatch.engine.internal.lease.LeaseTable;
import io.ringwatch.engine.internal.secondary.IndexMaintainer;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.lease.LeaseClock;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.engine.stats.TimingCounter;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.DirectBuffer;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The write path's front door: validates a write on the caller's thread, claims a slot of the
 * Disruptor ring (multi-producer), fills it in place and publishes it to the one writer thread
 * ({@link RevisionApplier}). Blocking writes wait on a per-thread {@link BlockingCompletion};
 * asynchronous ones get a future or a callback.
 *
 * <p>Any thread may write. A request that fails validation throws {@link InvalidRequestException}
 * and changes nothing; a write after {@link #close()} throws {@link EngineClosedException}.
 * Closing lets every write already admitted (its slot claimed before the close) finish, so none
 * hangs.
 */
public final class WritePipeline implements AutoCloseable
{
    private final int maxKeyBytes;
    private final int maxValueBytes;
    private final Disruptor<WriteCommand> disruptor;
    private final RingBuffer<WriteCommand> ring;
    private final Journaller journaller;
    private final boolean stampTime;
    private final LeaseClock leaseClock;
    private final WriterLeases leases;
    private final LeaseTimer leaseTimer;
    private final ThreadLocal<BlockingCompletion> completions = ThreadLocal.withInitial(BlockingCompletion::new);
    private volatile boolean closed;
    private volatile Thread writerThread;

    /**
     * Starts the writer thread and returns once it runs, so that a {@link #close()} right after
     * construction still completes every write admitted before it.
     *
     * @param config sizes, limits and the writer's wait strategy.
     * @param index  the index the writer owns from now on.
     * @param window the window the writer owns from now on.
     * @param cursor the writer's published progress.
     * @param secondary keeps the secondary indexes current on the writer thread.
     * @param undo      keeps what pinned consistent reads need, on the writer thread.
     * @param compactMark etcd's compaction mark (-1: never compacted, 0 after a compaction at 0, else
     *                the compaction point), read by the writer
     *                to check the reads a transaction's path names ({@link Op#readAt}).
     * @param journal the revision log, or null for an in-memory engine; with one, a journal stage
     *                (thread {@code ringwatch-journal}) appends each revision after the writer and
     *                completes the writes (see {@link Journaller}).
     * @param windowReaders rung by the writer after it publishes events to the window (at the end
     *                of each batch, and every few hundred revisions within a long one), each
     *                only while its gate is open.
     */
    public WritePipeline(
        final RingWatchConfig config,
        final OffHeapIndex index,
        final WatchWindow window,
        final RevisionCursor cursor,
        final IndexMaintainer secondary,
        final UndoLog undo,
        final LongSupplier compactMark,
        final Journal journal,
        final GatedDoorbell[] windowReaders)
    {
        this.maxKeyBytes = config.maxKeyBytes();
        this.maxValueBytes = config.maxValueBytes();
        disruptor = new Disruptor<>(WriteCommand::new, config.writeRingSize(), runnable ->
        {
            final Thread thread = new Thread(runnable, config.name() + "-writer");
            thread.setDaemon(true);
            writerThread = thread;
            return thread;
        }, ProducerType.MULTI, config.writerWaitStrategy().get());
        journaller = journal == null ? null : new Journaller(config.name() + "-journal", journal, disruptor.getRingBuffer(), window, cursor,
            windowReaders, new IndexRollback(index, secondary));
        stampTime = journal != null;
        leaseClock = config.leaseClock();
        final LeaseTable leaseTable = LeaseRecovery.recover(journal, index, config.leaseMinTtlSeconds(), leaseClock.nowMillis());
        final RevisionApplier applier = new RevisionApplier(index, window, cursor, secondary, undo, compactMark,
            leaseTable, journal, journaller,
            windowReaders, disruptor.getRingBuffer(), config.maxKeyBytes(), config.maxValueBytes());
        disruptor.handleEventsWith(applier);
        if (journaller != null)
        {
            // The journal stage follows the writer over the same slots: a slot is reused only
            // once the journal has passed it.
            disruptor.getRingBuffer().addGatingSequences(journaller.sequence());
            journaller.start();
        }
        disruptor.setDefaultExceptionHandler(new FailingHandler(journaller == null));
        ring = disruptor.start();
        applier.awaitRunning();
        leases = new WriterLeases(this);
        leaseTimer = config.leaseCheckInterval().isZero() ? null :
            new LeaseTimer(config.name() + "-lease-timer", leases, leaseTable::liveCount, config.leaseCheckInterval());
    }

    /**
     * @return the engine's leases, whose every operation goes through this pipeline's writer.
     */
    public Leases leases()
    {
        return leases;
    }

    /**
     * Applies one operation and waits for it. Allocates the result.
     *
     * @param op the put or delete.
     * @return what it did.
     * @throws InvalidRequestException for a key or value over the limits.
     * @throws EngineClosedException   after close.
     */
    public WriteResult write(final Op op)
    {
        final BlockingCompletion completion = armedCompletion();
        publishOp(op, WriteCommand.ANY_REVISION, completion);
        completion.await();
        return new WriteResult(completion.revision, completion.succeeded, completion.deleted,
            completion.prevKvs == null ? List.of() : completion.prevKvs);
    }

    /**
     * Applies one operation without waiting. The future completes on the writer thread (the journal
     * thread with a journal).
     *
     * @param op the put or delete.
     * @return the result, later.
     * @throws InvalidRequestException for a key or value over the limits.
     * @throws EngineClosedException   after close.
     * @throws RingWatchException      on the thread that completes writes while the ring is full.
     */
    public CompletableFuture<WriteResult> writeAsync(final Op op)
    {
        final CompletableFuture<WriteResult> future = new CompletableFuture<>();
        publishOp(op, WriteCommand.ANY_REVISION, FutureCompletion.forWrite(future));
        return future;
    }

    /**
     * Puts only if the key's mod revision equals {@code expectedModRevision} (0: only if the key
     * is absent), and waits. {@code succeeded()} tells whether it was applied.
     *
     * @param put                 the put.
     * @param expectedModRevision the mod revision the key must have; not negative.
     * @return what it did.
     */
    public WriteResult compareAndPut(final Op put, final long expectedModRevision)
    {
        requireConditionalPut(put, expectedModRevision);
        final BlockingCompletion completion = armedCompletion();
        publishOp(put, expectedModRevision, completion);
        completion.await();
        return new WriteResult(completion.revision, completion.succeeded, 0,
            completion.prevKvs == null ? List.of() : completion.prevKvs);
    }

    /**
     * Applies a transaction atomically under one revision and waits for it.
     *
     * @param txn the transaction.
     * @return what it did.
     * @throws InvalidRequestException for oversized keys or values, or a key written twice.
     */
    public TxnResult txn(final Txn txn)
    {
        validate(txn);
        final BlockingCompletion completion = armedCompletion();
        publishTxn(txn, completion);
        completion.await();
        return completion.txn;
    }

    /**
     * Applies a transaction without waiting. The future completes on the writer thread (the journal
     * thread with a journal).
     *
     * @param txn the transaction.
     * @return the result, later.
     */
    public CompletableFuture<TxnResult> txnAsync(final Txn txn)
    {
        validate(txn);
        final CompletableFuture<TxnResult> future = new CompletableFuture<>();
        publishTxn(txn, FutureCompletion.forTxn(future));
        return future;
    }

    /**
     * @return a new zero-allocation writer for the calling thread.
     */
    public PipelineDirectWriter newDirectWriter()
    {
        return new PipelineDirectWriter(this);
    }

    /**
     * Refuses further writes, lets every admitted write complete, and stops the writer thread.
     * Idempotent.
     * <p>
     * A write is admitted when its slot was claimed before the close: the ring's claim cursor
     * counts it, and the Disruptor's shutdown waits until the writer has handled every claimed
     * slot, published as it will be by its producer. A producer checks {@code closed} after its
     * claim, and the close reads the cursor after setting {@code closed} (a Dekker pair: the
     * claim's atomic add and the fence here), so a write the shutdown does not wait for sees the
     * close and is refused. This replaced a counter of writes in flight, whose two atomic updates
     * per write cost a producer about a fifth of its time.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        VarHandle.fullFence();
        if (leaseTimer != null)
        {
            leaseTimer.close();
        }
        try
        {
            disruptor.shutdown(30, TimeUnit.SECONDS);
        }
        catch (final TimeoutException e)
        {
            disruptor.halt();
        }
        if (journaller != null)
        {
            journaller.close();
        }
    }

    /**
     * @return true once {@link #close()} has begun.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * @return the journal stage's append timings (one operation per revision), or null for an
     * in-memory engine. Any thread.
     */
    public TimingCounter journalAppends()
    {
        return journaller == null ? null : journaller.appends();
    }

    /**
     * @return the journal stage's flush timings (SYNC group commits), or null for an in-memory
     * engine. Any thread.
     */
    public TimingCounter journalFlushes()
    {
        return journaller == null ? null : journaller.flushes();
    }

    void publishDirectPut(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long expectedModRevision, final WriteCompletion completion, final WriteCallback callback)
    {
        requireKeyLength(keyLength);
        requireValueLength(valueLength);
        requireSlice("key", key, keyOffset, keyLength);
        requireSlice("value", value, valueOffset, valueLength);
        final WriteCommand command = claim(completion, callback);
        try
        {
            command.key(key, keyOffset, keyLength);
            command.value(value, valueOffset, valueLength);
            command.expectedModRevision = expectedModRevision;
            command.kind = WriteCommand.PUT;
        }
        finally
        {
            release(command);
        }
    }

    void publishDirectDelete(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final WriteCompletion completion, final WriteCallback callback)
    {
        requireKeyLength(keyLength);
        requireSlice("key", key, keyOffset, keyLength);
        final WriteCommand command = claim(completion, callback);
        try
        {
            command.key(key, keyOffset, keyLength);
            command.rangeMode = WriteCommand.SINGLE_KEY;
            command.kind = WriteCommand.DELETE;
        }
        finally
        {
            release(command);
        }
    }

    /**
     * Publishes one lease command stamped with the lease clock's time and waits for it.
     *
     * @return the completion, holding the result.
     */
    BlockingCompletion lease(final int kind, final long id, final long ttlSeconds, final boolean withKeys)
    {
        final BlockingCompletion completion = armedCompletion();
        publishLease(kind, id, ttlSeconds, withKeys, completion);
        completion.await();
        return completion;
    }

    /**
     * Publishes one lease command stamped with the lease clock's time; {@code completion} hears of
     * it on the thread that completes writes.
     */
    void publishLease(final int kind, final long id, final long ttlSeconds, final boolean withKeys, final WriteCompletion completion)
    {
        final WriteCommand command = claim(completion, null);
        try
        {
            command.lease = id;
            command.leaseTtlSeconds = ttlSeconds;
            command.leaseWithKeys = withKeys;
            command.leaseNowMillis = leaseClock.nowMillis();
            command.kind = kind;
        }
        finally
        {
            release(command);
        }
    }

    /**
     * Whether the caller runs on the thread that completes writes (the writer in memory, the
     * journal stage in a persistent engine): there a call that waits for writes to complete or to
     * be appended would wait for itself. Any thread; no allocation.
     *
     * @return true on the writer's or the journal stage's thread.
     */
    public boolean onCompletingThread()
    {
        return Thread.currentThread() == writerThread || (journaller != null && journaller.isJournalThread());
    }

    BlockingCompletion armedCompletion()
    {
        if (onCompletingThread())
        {
            throw new RingWatchException("a blocking write from the thread that completes writes would wait for itself: " +
                "chain it with the *Async variants of CompletableFuture");
        }
        final BlockingCompletion completion = completions.get();
        completion.arm();
        return completion;
    }

    private void publishOp(final Op op, final long expectedModRevision, final WriteCompletion completion)
    {
        if (op == null)
        {
            throw new InvalidRequestException("operation must not be null");
        }
        if (op.kind() == Op.Kind.TXN || op.kind() == Op.Kind.READ)
        {
            throw new InvalidRequestException("a " + (op.kind() == Op.Kind.TXN ? "nested transaction" : "read") +
                " is an operation of a transaction's branch, not a write of its own");
        }
        validate(op);
        final WriteCommand command = claim(completion, null);
        try
        {
            command.expectedModRevision = expectedModRevision;
            fill(command, op);
        }
        finally
        {
            release(command);
        }
    }

    private void publishTxn(final Txn txn, final WriteCompletion completion)
    {
        final WriteCommand command = claim(completion, null);
        command.txn = txn;
        command.kind = WriteCommand.TXN;
        release(command);
    }

    /**
     * Admits a write and claims its ring slot, reset to a no-op so that a slot published after a
     * failed fill does nothing (a no-op completes no one). Every claim must be followed by
     * {@link #release}. A write that finds the pipeline closed after its claim publishes its slot
     * as a no-op and is refused (see {@link #close()}). On the thread that completes writes a
     * full ring refuses the write instead of waiting ({@link #claimWithoutWaiting()}).
     *
     * @param completion told the result once the command's kind is set, or null.
     * @param callback   told the result once the command's kind is set, or null.
     * @throws EngineClosedException after close.
     * @throws RingWatchException    on the thread that completes writes, when the ring is full.
     */
    private WriteCommand claim(final WriteCompletion completion, final WriteCallback callback)
    {
        requireOpen();
        final long sequence = onCompletingThread() ? claimWithoutWaiting() : ring.next();
        final WriteCommand command = ring.get(sequence);
        command.reset(WriteCommand.NOOP, completion, callback);
        command.sequence = sequence;
        if (closed)
        {
            ring.publish(sequence);
            throw closedException();
        }
        if (stampTime)
        {
            // Stamped where the command enters, so the writer applies nothing it read from a clock.
            command.timestampMillis = System.currentTimeMillis();
        }
        return command;
    }

    /**
     * Claims a slot for a write made where writes complete (a completion or callback, an index
     * function): that thread is the one that frees the ring's slots, so a claim that waited for
     * room would wait for itself. Refused at once instead, nothing claimed.
     */
    private long claimWithoutWaiting()
    {
        try
        {
            return ring.tryNext();
        }
        catch (final InsufficientCapacityException e)
        {
            throw new RingWatchException("the write ring is full, and a write from the thread that completes writes " +
                "would wait for itself to free a slot: chain it with the *Async variants of CompletableFuture");
        }
    }

    private void release(final WriteCommand command)
    {
        ring.publish(command.sequence);
    }

    private static void fill(final WriteCommand command, final Op op)
    {
        final KeyRange range = op.range();
        command.key(range.fromKey());
        command.prevKv = op.prevKv();
        if (op.kind() == Op.Kind.PUT)
        {
            command.value(op.value());
            command.lease = op.lease();
            command.ignoreLease = op.ignoreLease();
            command.kind = WriteCommand.PUT;
            return;
        }
        if (range.isSingleKey())
        {
            command.rangeMode = WriteCommand.SINGLE_KEY;
        }
        else if (range.toKey() == null)
        {
            command.rangeMode = WriteCommand.UNBOUNDED;
        }
        else
        {
            command.rangeMode = WriteCommand.BOUNDED;
            command.rangeEnd(range.toKey());
        }
        command.kind = WriteCommand.DELETE;
    }

    private void requireOpen()
    {
        // Not needed for correctness (the check after the claim is), but after a close the writer
        // may be gone: claiming nothing keeps a late producer from waiting for room in a full ring.
        if (closed)
        {
            throw closedException();
        }
    }

    private static EngineClosedException closedException()
    {
        return new EngineClosedException("the engine is closed: write refused");
    }

    private void validate(final Op op)
    {
        final KeyRange range = op.range();
        if (range.isSingleKey())
        {
            requireKeyLength(range.fromKey().length);
        }
        else
        {
            requireRangeLimits(range);
        }
        if (op.kind() == Op.Kind.PUT)
        {
            requireValueLength(op.value().length);
        }
    }

    /** A range may start at the empty key (every key); its bounds still obey the key limit. */
    private void requireRangeLimits(final KeyRange range)
    {
        requireKeyLimit(range.fromKey().length);
        if (range.toKey() != null)
        {
            requireKeyLimit(range.toKey().length);
        }
    }

    private void validate(final Txn txn)
    {
        if (txn == null)
        {
            throw new InvalidRequestException("transaction must not be null");
        }
        for (final Compare compare : txn.when())
        {
            final KeyRange range = compare.range();
            if (range == null)
            {
                requireKeyLength(compare.key().length);
            }
            else
            {
                requireRangeLimits(range);
            }
        }
        validateBranch(txn.then());
        validateBranch(txn.orElse());
    }

    /**
     * Validates each op (a nested transaction as a whole; a read names no key), then refuses a put key given twice and a
     * delete whose range holds a put key, with the errors an all-pairs check in op order would give:
     * the first op that fails validation or repeats an earlier put key, whichever comes first, then
     * the first delete that holds a put key. O(n log n): the put keys are sorted once (stably, so
     * equal keys keep their op order), and a delete's range, being one interval that starts at its
     * from key, holds a put key exactly when the first put key at or after its from key lies in it.
     * A branch that nests transactions is then checked across the nesting ({@link NestedWrites}).
     */
    private void validateBranch(final List<Op> ops)
    {
        final int size = ops.size();
        InvalidRequestException invalid = null;
        int validOps = size;
        boolean nests = false;
        for (int i = 0; i < size; i++)
        {
            final Op op = ops.get(i);
            try
            {
                if (op.kind() == Op.Kind.TXN)
                {
                    nests = true;
                    validate(op.nested());
                }
                else if (op.kind() != Op.Kind.READ)
                {
                    validate(op);
                }
            }
            catch (final InvalidRequestException e)
            {
                // Thrown only if no earlier op repeats a put key, as an in-order check would.
                invalid = e;
                validOps = i;
                break;
            }
        }
        final Integer[] puts = putsByKey(ops, validOps);
        final Op duplicate = firstDuplicatePut(ops, puts);
        if (duplicate != null)
        {
            throw new DuplicateKeyException("duplicate key given in transaction: " + duplicate);
        }
        if (invalid != null)
        {
            throw invalid;
        }
        for (int i = 0; i < size && puts.length > 0; i++)
        {
            final Op op = ops.get(i);
            if (op.kind() == Op.Kind.DELETE && holdsAnyKey(op.range(), ops, puts))
            {
                throw new DuplicateKeyException("transaction deletes a key it also puts: " + op);
            }
        }
        if (nests)
        {
            NestedWrites.check(ops);
        }
    }

    /** @return the indexes of the put ops among the first {@code count}, sorted stably by key. */
    private static Integer[] putsByKey(final List<Op> ops, final int count)
    {
        int putCount = 0;
        for (int i = 0; i < count; i++)
        {
            if (ops.get(i).kind() == Op.Kind.PUT)
            {
                putCount++;
            }
        }
        final Integer[] puts = new Integer[putCount];
        for (int i = 0, p = 0; i < count; i++)
        {
            if (ops.get(i).kind() == Op.Kind.PUT)
            {
                puts[p++] = i;
            }
        }
        Arrays.sort(puts, (a, b) -> Keys.compare(ops.get(a).key(), ops.get(b).key()));
        return puts;
    }

    /** @return the earliest put op whose key an earlier put op already gave, or null. */
    private static Op firstDuplicatePut(final List<Op> ops, final Integer[] puts)
    {
        int first = Integer.MAX_VALUE;
        for (int i = 1; i < puts.length; i++)
        {
            // Stable sort: of equal keys the earliest op comes first, and each later one repeats it.
            if (Keys.compare(ops.get(puts[i - 1]).key(), ops.get(puts[i]).key()) == 0)
            {
                first = Math.min(first, puts[i]);
            }
        }
        return first == Integer.MAX_VALUE ? null : ops.get(first);
    }

    /** @return true when {@code range} holds the key of one of the sorted {@code puts}. */
    private static boolean holdsAnyKey(final KeyRange range, final List<Op> ops, final Integer[] puts)
    {
        final byte[] from = range.fromKey();
        int low = 0;
        int high = puts.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (Keys.compare(ops.get(puts[mid]).key(), from) < 0)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low < puts.length && range.contains(ops.get(puts[low]).key());
    }

    private static void requireConditionalPut(final Op put, final long expectedModRevision)
    {
        if (put == null || put.kind() != Op.Kind.PUT)
        {
            throw new InvalidRequestException("compare-and-put takes a put operation");
        }
        if (expectedModRevision < 0)
        {
            throw new InvalidRequestException("expected mod revision must not be negative: " + expectedModRevision);
        }
    }

    /**
     * Refuses a slice that is not inside its buffer before any slot is claimed: the copy into the
     * slot would otherwise fail with an untyped bounds error, or, with Agrona's bounds checks
     * disabled, read memory outside the buffer.
     *
     * @throws InvalidRequestException for a null buffer or a slice outside it.
     */
    public static void requireSlice(final String what, final DirectBuffer buffer, final int offset, final int length)
    {
        if (buffer == null)
        {
            throw new InvalidRequestException(what + " buffer must not be null");
        }
        if (offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            throw new InvalidRequestException(what + " [" + offset + ", +" + length + ") is outside its buffer of " +
                buffer.capacity() + " bytes");
        }
    }

    private void requireKeyLength(final int length)
    {
        if (length <= 0)
        {
            throw new InvalidRequestException("key must not be empty");
        }
        requireKeyLimit(length);
    }

    private void requireKeyLimit(final int length)
    {
        if (length > maxKeyBytes)
        {
            throw new InvalidRequestException("key of " + length + " bytes exceeds the limit of " + maxKeyBytes);
        }
    }

    private void requireValueLength(final int length)
    {
        if (length < 0)
        {
            throw new InvalidRequestException("value length must not be negative: " + length);
        }
        if (length > maxValueBytes)
        {
            throw new InvalidRequestException("value of " + length + " bytes exceeds the limit of " + maxValueBytes);
        }
    }

    /** Fails the one command whose handling threw past the applier's own guard; the writer goes on. */
    private static final class FailingHandler implements ExceptionHandler<WriteCommand>
    {
        /** False when the journal stage completes every command, this one included. */
        private final boolean completes;

        FailingHandler(final boolean completes)
        {
            this.completes = completes;
        }

        @Override
        public void handleEventException(final Throwable ex, final long sequence, final WriteCommand command)
        {
            command.resultError = new RingWatchException("write failed in the writer: " + ex, ex);
            if (completes)
            {
                command.complete();
            }
        }

        @Override
        public void handleOnStartException(final Throwable ex)
        {
            throw new RingWatchException("writer failed to start", ex);
        }

        @Override
        public void handleOnShutdownException(final Throwable ex)
        {
            throw new RingWatchException("writer failed to stop", ex);
        }
    }
}
