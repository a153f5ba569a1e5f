package io.ringwatch.engine.internal.write;

import com.lmax.disruptor.DataProvider;
import com.lmax.disruptor.EventHandler;
import io.ringwatch.engine.errors.KeyNotFoundException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.errors.RevisionTooLargeException;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.errors.WriterFailedException;
import io.ringwatch.engine.idle.GatedDoorbell;
import io.ringwatch.engine.spi.Journal;
import io.ringwatch.engine.internal.index.IndexEntry;
import io.ringwatch.engine.internal.index.IndexVisitor;
import io.ringwatch.engine.internal.index.OffHeapIndex;
import io.ringwatch.engine.internal.lease.Lease;
import io.ringwatch.engine.internal.lease.LeaseTable;
import io.ringwatch.engine.internal.secondary.IndexMaintainer;
import io.ringwatch.engine.internal.undo.UndoLog;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.WriteResult;
import io.ringwatch.engine.lease.LeaseGrant;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The single writer: consumes the write ring and, for each command, checks its conditions, the
 * revisions a transaction's chosen path reads at ({@link TxnPlan#checkReads}), the secondary-index
 * functions and the revision's size in the journal ({@link RevisionSizer}) before
 * anything changes, assigns the next revision if it changes anything, applies it to the off-heap
 * index (which yields the previous key-value), appends its events to the watch window, publishes
 * them, and (in memory) completes the producer's wait. Runs on the one writer thread only; it alone mutates the index
 * and the window, and keeps the secondary indexes current through {@link IndexMaintainer}
 * (whose functions check every new value before the first mutation). Puts and deletes allocate
 * nothing in steady state; transactions and {@code prevKv} results allocate their result objects.
 *
 * <p>The writer builds each revision's {@link ChangeRecord} once, in the command's ring slot, as it
 * applies it: the window appends each change from it. With a journal, the writer hands the slots over to the {@link Journaller} (at the end of each
 * batch, and every few dozen commands within a long one), which appends them and completes the
 * writes: the writer never waits for the disk. With a SYNC journal the writer publishes nothing:
 * the journal stage opens the window and the applied revision once a batch is durable. After a
 * journal failure the writer refuses every command ({@link io.ringwatch.engine.errors.JournalFailedException})
 * and changes nothing more. The writer reads the window's clock once per batch (and per flush within a
 * long one) for the events' times, which only the window's resize rules use; a command carries the
 * wall-clock time it entered for the journal.
 */
final class RevisionApplier implements EventHandler<WriteCommand>
{
    private static final Logger LOG = LoggerFactory.getLogger(RevisionApplier.class);
    /**
     * Revisions applied between rings of the window readers' doorbells within one long batch: a
     * reader parked at the start of a batch is woken before its end, yet a saturated writer pays
     * the ring's fence once per this many revisions, not per revision. A dispatcher is faster than
     * the writer, so it catches up and parks again after every ring: each ring within a batch is a
     * wake-up (an unpark here, a futex wait and a switch there). At 256 rather than 64 the
     * dispatcher and delivery threads took a fifth less CPU per put under a sliding window
     * (jmh/README.md, "Where a put's time goes"), for at most 256 revisions of the writer's work
     * (about 0.1 ms) before a reader hears of the start of a long batch; a short batch rings at its
     * end as before.
     */
    private static final int RING_READERS_EVERY_REVISIONS = 256;
    /**
     * Commands applied between flushes within one long batch: a flush publishes the revisions
     * applied since the last one to readers (the window's published cursor, then {@code applied})
     * and completes their commands (in memory) or hands them to the journal stage. Publishing per
     * revision made the writer store, per revision, to the cache lines every spinning reader
     * polls, and each such store waited for the line to come back (the next revision's fence
     * drained it): on the 16-core device the publish and that fence took 11% and 32% of the
     * writer's samples under a sliding window of puts. A short batch flushes at its end, so at
     * low load nothing waits longer; in a long one a reader hears of a revision at most this many
     * commands later (tens of microseconds). The commands between two flushes are also one flush
     * group of the pin handshake: one full fence per group ({@link RevisionCursor#announce}), not
     * per revision (on the device the per-revision fence was 14% of the writer's samples).
     */
    private static final int FLUSH_EVERY_COMMANDS = 64;

    private final OffHeapIndex index;
    private final WatchWindow window;
    private final RevisionCursor cursor;
    private final IndexMaintainer secondary;
    private final UndoLog undo;
    /** etcd's compaction mark (-1: never compacted), set by other threads: what a transaction's reads may not precede. */
    private final LongSupplier compactMark;
    private final LeaseTable leases;
    private final IndexEntry prev = new IndexEntry();
    private final IndexEntry probe = new IndexEntry();
    private final ExpandableArrayBuffer doomedKeys = new ExpandableArrayBuffer(1024);
    private final IntArrayList doomedOffsets = new IntArrayList();
    private final UnsafeBuffer compareKey = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer compareEnd = new UnsafeBuffer(new byte[0]);
    private final IndexVisitor testInRange = this::testInRange;
    /** The range compare being evaluated, and whether every key so far passed it. */
    private Compare rangeCompare;
    private boolean rangeHolds;
    /** A transaction's (and each nested one's) conditions, evaluated before any of its writes. */
    private final Predicate<List<Compare>> conditions = this::holds;
    private final UnsafeBuffer doomedKey = new UnsafeBuffer(new byte[0]);
    private final IndexVisitor collectDoomed = this::collectDoomed;
    private final IndexVisitor measureDoomed = this::measureDoomed;
    private final RevisionSizer sizer;
    private final Journaller journal;
    private final boolean publishes;
    private final GatedDoorbell[] windowReaders;
    private long rungRevision;
    /**
     * The write ring's slots: in memory, the flush completes the commands applied since the last one
     * by reading their slots back by sequence (persistent: unused, the journal completes). A reference
     * kept per command in an array of this long-lived object would dirty a G1 card per put (see
     * {@link WriteCommand#reset}).
     */
    private final DataProvider<WriteCommand> slots;
    /** Commands applied since the last flush: the slots up to the flushed sequence. */
    private int unflushedCommands;
    /** The newest revision the last flush published to readers. */
    private long publishedRevision;
    /** Whether a revision since the last flush announced its flush group to readers (one full fence per group). */
    private boolean groupAnnounced;
    /** The window's clock, read at the start of each batch and at each flush within a long one: the time of the events appended until the next read. */
    private long batchNanos;
    private final CountDownLatch running = new CountDownLatch(1);
    private int doomedBytes;
    private long revision;
    private boolean mutating;
    /** Set once an Error stopped the writer: every later command fails with it. */
    private WriterFailedException failure;

    RevisionApplier(
        final OffHeapIndex index,
        final WatchWindow window,
        final RevisionCursor cursor,
        final IndexMaintainer secondary,
        final UndoLog undo,
        final LongSupplier compactMark,
        final LeaseTable leases,
        final Journal journalSizes,
        final Journaller journal,
        final GatedDoorbell[] windowReaders,
        final DataProvider<WriteCommand> slots,
        final int maxKeyBytes,
        final int maxValueBytes)
    {
        this.slots = slots;
        this.sizer = new RevisionSizer(journalSizes, maxKeyBytes, maxValueBytes);
        this.index = index;
        this.windowReaders = windowReaders.clone();
        this.window = window;
        this.cursor = cursor;
        this.secondary = secondary;
        this.undo = undo;
        this.compactMark = compactMark;
        this.leases = leases;
        this.revision = cursor.applied();
        this.rungRevision = revision;
        this.publishedRevision = revision;
        this.batchNanos = window.clockNanos();
        this.journal = journal;
        this.publishes = journal == null || !journal.gatesVisibility();
    }

    /**
     * Called by the Disruptor on the writer thread once its processor is running, before the
     * first event.
     */
    @Override
    public void onStart()
    {
        running.countDown();
    }

    /**
     * Waits until the writer thread runs. Until then the Disruptor counts no consumer, so a
     * shutdown would see no backlog, halt the processor before it starts, and strand every write
     * already published. Any thread; allocates nothing.
     */
    void awaitRunning()
    {
        boolean interrupted = false;
        while (running.getCount() != 0)
        {
            try
            {
                running.await();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads the window's clock once for the batch's events. Writer thread.
     */
    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        batchNanos = window.clockNanos();
    }

    @Override
    public void onEvent(final WriteCommand command, final long sequence, final boolean endOfBatch)
    {
        apply(command);
        unflushedCommands++;
        if (endOfBatch || unflushedCommands == FLUSH_EVERY_COMMANDS)
        {
            flush(sequence, endOfBatch);
        }
    }

    /**
     * Makes the commands applied since the last flush visible and answered: ends their flush group
     * (readers waiting for its last revision go on to wait for visibility), publishes their
     * revisions (window, then {@code applied}) unless the journal gates visibility, rings the
     * window's readers when due, then completes the commands (in memory) or hands their slots
     * to the journal stage, which completes them once appended. Publishing before completing
     * keeps read-your-writes: a caller told of revision R finds it applied.
     */
    private void flush(final long sequence, final boolean endOfBatch)
    {
        if (groupAnnounced)
        {
            groupAnnounced = false;
            cursor.markEnded(revision);
        }
        if (publishes && revision != publishedRevision)
        {
            publishedRevision = revision;
            window.publish();
            cursor.markApplied(revision);
        }
        if (publishes && revision != rungRevision && (endOfBatch || revision - rungRevision >= RING_READERS_EVERY_REVISIONS))
        {
            wakeWindowReaders();
        }
        if (journal == null)
        {
            for (long s = sequence - unflushedCommands + 1; s <= sequence; s++)
            {
                slots.get(s).complete();
            }
        }
        else
        {
            journal.hand(sequence);
        }
        unflushedCommands = 0;
        if (!endOfBatch)
        {
            // The batch goes on: its next events get a fresh time (the next batch reads its own).
            batchNanos = window.clockNanos();
        }
    }

    /**
     * Rings the doorbells of the dispatchers, which follow the window this writer just published:
     * one fence for all of them, and an unpark only for one that parks with a watcher to serve.
     */
    private void wakeWindowReaders()
    {
        rungRevision = revision;
        GatedDoorbell.ringAll(windowReaders);
    }

    private void apply(final WriteCommand command)
    {
        mutating = false;
        if (failure != null && command.kind != WriteCommand.NOOP)
        {
            command.resultError = failure;
            return;
        }
        if (journal != null && command.kind != WriteCommand.NOOP)
        {
            final RingWatchException failure = journal.failure();
            if (failure != null)
            {
                command.resultError = failure;
                return;
            }
        }
        try
        {
            undo.beginRevision();
            secondary.beginCommand(revision);
            switch (command.kind)
            {
                case WriteCommand.PUT:
                    applyPut(command);
                    break;
                case WriteCommand.DELETE:
                    applyDelete(command);
                    break;
                case WriteCommand.TXN:
                    applyTxn(command);
                    break;
                case WriteCommand.LEASE_GRANT:
                case WriteCommand.LEASE_REVOKE:
                case WriteCommand.LEASE_KEEP_ALIVE:
                case WriteCommand.LEASE_EXPIRE:
                case WriteCommand.LEASE_TIME_TO_LIVE:
                case WriteCommand.LEASE_LIST:
                    applyLease(command);
                    break;
                default:
                    return;
            }
            finishRevision(command);
        }
        catch (final RuntimeException e)
        {
            // Only a broken invariant gets here after a mutation: publish what was applied, so the
            // window, the journal and the index still agree.
            finishRevision(command);
            command.resultError = e instanceof RingWatchException ?
                (RingWatchException)e : new RingWatchException("write failed in the writer: " + e, e);
        }
        catch (final Error e)
        {
            // Not the user's code (index functions and callbacks are contained where they run): the
            // writer stops writing, after publishing what was applied as above; completing the
            // command as usual keeps every caller, through the journal stage too, from waiting.
            failure = new WriterFailedException("the writer failed applying revision " + (revision + 1) +
                " and refuses every write from now on; reopen the engine: " + e, e);
            LOG.error("{}: {}", Thread.currentThread().getName(), failure.getMessage(), e);
            if (mutating)
            {
                finishRevision(command);
            }
            command.resultError = failure;
        }
    }

    private void applyPut(final WriteCommand command)
    {
        final long expected = command.expectedModRevision;
        if (expected != WriteCommand.ANY_REVISION)
        {
            final boolean present = index.get(command.key, 0, command.keyLength, probe);
            final long modRevision = present ? probe.modRevision() : 0;
            if (modRevision != expected)
            {
                command.resultRevision = revision;
                command.resultSucceeded = false;
                return;
            }
        }
        final long lease = leaseOfPut(command.key, command.keyLength, command.lease, command.ignoreLease);
        if (sizer.mustMeasureSingleChanges())
        {
            sizer.begin();
            sizer.add(command.keyLength, command.valueLength,
                index.get(command.key, 0, command.keyLength, probe) ? probe.valueLength() : 0);
            sizer.check();
        }
        secondary.checkPut(command.value, command.valueLength);
        put(command, command.key, command.keyLength, command.value, command.valueLength, lease);
        command.resultRevision = revision + 1;
        command.resultSucceeded = true;
        if (command.prevKv && prev.found())
        {
            command.resultPrevKvs = List.of(copyOf(prev));
        }
    }

    private void applyDelete(final WriteCommand command)
    {
        final long deleted;
        if (command.rangeMode == WriteCommand.SINGLE_KEY)
        {
            deleted = deleteOne(command, command.key, command.keyLength, command.prevKv);
        }
        else
        {
            deleted = deleteRange(command, command.key, command.keyLength,
                command.rangeMode == WriteCommand.BOUNDED ? command.rangeEnd : null, command.rangeEndLength,
                command.prevKv);
        }
        command.resultRevision = deleted > 0 ? revision + 1 : revision;
        command.resultSucceeded = true;
        command.resultDeleted = deleted;
    }

    private void applyTxn(final WriteCommand command)
    {
        final TxnPlan plan = TxnPlan.choose(command.txn, conditions);
        final List<Op> ops = plan.writes();
        final long[] opLeases = leasesOfPuts(ops, command);
        // After the puts' leases, as etcd checks its paths' puts before their ranges.
        plan.checkReads(revision, compactMark.getAsLong());
        secondary.checkTxn(ops);
        if (sizer.isBounded())
        {
            measure(ops, command);
        }
        final long[] deleted = new long[ops.size()];
        final List<List<KeyValue>> prevKvs = new ArrayList<>(ops.size());
        final ExpandableArrayBuffer key = command.key;
        for (int i = 0; i < ops.size(); i++)
        {
            final Op op = ops.get(i);
            command.resultPrevKvs = null;
            if (op.kind() == Op.Kind.PUT)
            {
                key.putBytes(0, op.key());
                command.value.putBytes(0, op.value());
                put(command, key, op.key().length, command.value, op.value().length, opLeases[i]);
                if (op.prevKv() && prev.found())
                {
                    command.resultPrevKvs = List.of(copyOf(prev));
                }
            }
            else
            {
                deleted[i] = deleteTxnRange(command, op);
            }
            prevKvs.add(command.resultPrevKvs == null ? List.of() : command.resultPrevKvs);
        }
        final long txnRevision = mutating ? revision + 1 : revision;
        final List<WriteResult> results = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++)
        {
            results.add(new WriteResult(txnRevision, true, deleted[i], prevKvs.get(i)));
        }
        command.resultPrevKvs = null;
        command.resultTxn = plan.result(txnRevision, results);
        command.resultRevision = txnRevision;
        command.resultSucceeded = plan.succeeded();
    }

    /** @return true when every compare holds in the index as it is now. */
    private boolean holds(final List<Compare> compares)
    {
        for (final Compare compare : compares)
        {
            if (!(compare.range() == null ? holdsForKey(compare) : holdsForRange(compare)))
            {
                return false;
            }
        }
        return true;
    }

    private boolean holdsForKey(final Compare compare)
    {
        final byte[] key = compare.key();
        compareKey.wrap(key);
        final boolean present = index.get(compareKey, 0, key.length, probe);
        return compare.test(present, probe.version(), probe.createRevision(), probe.modRevision(), probe.lease(),
            present && compare.target() == Compare.Target.VALUE ? probe.valueBytes() : null);
    }

    /** Every key of the range must pass; an empty range compares as one absent key (etcd). */
    private boolean holdsForRange(final Compare compare)
    {
        final KeyRange range = compare.range();
        final byte[] from = range.fromKey();
        final byte[] to = range.toKey();
        compareKey.wrap(from);
        if (to != null)
        {
            compareEnd.wrap(to);
        }
        rangeCompare = compare;
        rangeHolds = true;
        final int visited = index.scan(compareKey, 0, from.length, to == null ? null : compareEnd, 0,
            to == null ? 0 : to.length, 0, testInRange);
        rangeCompare = null;
        return visited == 0 ? compare.test(false, 0, 0, 0, null) : rangeHolds;
    }

    private boolean testInRange(final IndexEntry entry)
    {
        rangeHolds = rangeCompare.test(true, entry.version(), entry.createRevision(), entry.modRevision(), entry.lease(),
            rangeCompare.target() == Compare.Target.VALUE ? entry.valueBytes() : null);
        return rangeHolds;
    }

    /**
     * Measures what the chosen branch will take in the journal, before anything changes: each
     * put with the value it replaces, each delete with every key-value it removes.
     */
    private void measure(final List<Op> ops, final WriteCommand command)
    {
        sizer.begin();
        for (int i = 0; i < ops.size(); i++)
        {
            final Op op = ops.get(i);
            final KeyRange range = op.range();
            final byte[] from = range.fromKey();
            command.key.putBytes(0, from);
            if (op.kind() == Op.Kind.PUT)
            {
                sizer.add(from.length, op.value().length,
                    index.get(command.key, 0, from.length, probe) ? probe.valueLength() : 0);
            }
            else if (range.isSingleKey())
            {
                if (index.get(command.key, 0, from.length, probe))
                {
                    sizer.add(from.length, 0, probe.valueLength());
                }
            }
            else
            {
                final byte[] to = range.toKey();
                if (to != null)
                {
                    command.rangeEnd.putBytes(0, to);
                }
                // Overlapping deletes are counted once each: an overestimate that errs on refusing.
                index.scan(command.key, 0, from.length, to == null ? null : command.rangeEnd, 0,
                    to == null ? 0 : to.length, 0, measureDoomed);
            }
        }
        sizer.check();
    }

    private boolean measureDoomed(final IndexEntry entry)
    {
        sizer.add(entry.keyLength(), 0, entry.valueLength());
        return true;
    }

    private long deleteTxnRange(final WriteCommand command, final Op op)
    {
        final KeyRange range = op.range();
        final byte[] from = range.fromKey();
        command.key.putBytes(0, from);
        final boolean prevKv = op.prevKv();
        if (range.isSingleKey())
        {
            return deleteOne(command, command.key, from.length, prevKv);
        }
        final byte[] to = range.toKey();
        if (to == null)
        {
            return deleteRange(command, command.key, from.length, null, 0, prevKv);
        }
        command.rangeEnd.putBytes(0, to);
        return deleteRange(command, command.key, from.length, command.rangeEnd, to.length, prevKv);
    }

    /**
     * Puts one key for {@code command}, whose slot receives the change. The command travels as a
     * parameter, not in a field: a reference stored per put into this long-lived object would
     * dirty a G1 card per put (see {@link WriteCommand#reset}).
     */
    private void put(
        final WriteCommand command, final DirectBuffer key, final int keyLength, final DirectBuffer value, final int valueLength,
        final long lease)
    {
        final long next = beginMutation(command);
        index.put(key, 0, keyLength, value, 0, valueLength, lease, next, prev);
        secondary.onChange(next, key, keyLength, prev, value, valueLength);
        final boolean existed = prev.found();
        final long prevLease = existed ? prev.lease() : 0;
        if (prevLease != lease)
        {
            // The key moves: etcd's put detaches it from its old lease, attaches it to the new.
            leases.detach(prevLease, key, keyLength);
            leases.attach(lease, key, keyLength);
        }
        final long createRevision = existed ? prev.createRevision() : next;
        final long version = existed ? prev.version() + 1 : 1;
        final ChangeRecord changes = command.changes;
        changes.add(EventType.PUT, key, 0, keyLength, value, 0, valueLength, createRevision, next, version, lease,
            existed ? prev.value() : null, 0, existed ? prev.valueLength() : 0,
            existed ? prev.createRevision() : 0, existed ? prev.modRevision() : 0, existed ? prev.version() : 0, prevLease);
        window.append(next, changes, batchNanos);
    }

    /**
     * The lease a put leaves its key with, checked before anything changes.
     *
     * @throws LeaseNotFoundException for a lease that does not live.
     * @throws KeyNotFoundException   for a put keeping the lease of a key that does not exist.
     */
    private long leaseOfPut(final DirectBuffer key, final int keyLength, final long lease, final boolean ignoreLease)
    {
        if (ignoreLease)
        {
            if (!index.get(key, 0, keyLength, probe))
            {
                throw new KeyNotFoundException();
            }
            return probe.lease();
        }
        if (lease != 0 && leases.find(lease) == null)
        {
            throw new LeaseNotFoundException(lease);
        }
        return lease;
    }

    /**
     * The lease of each put of a transaction's chosen branch, checked before its first change
     * (keys are distinct within a branch, so the index before the transaction decides).
     */
    private long[] leasesOfPuts(final List<Op> ops, final WriteCommand command)
    {
        final long[] result = new long[ops.size()];
        for (int i = 0; i < ops.size(); i++)
        {
            final Op op = ops.get(i);
            if (op.kind() == Op.Kind.PUT && (op.lease() != 0 || op.ignoreLease()))
            {
                command.key.putBytes(0, op.key());
                result[i] = leaseOfPut(command.key, op.key().length, op.lease(), op.ignoreLease());
            }
        }
        return result;
    }

    private void applyLease(final WriteCommand command)
    {
        final long now = command.leaseNowMillis;
        command.resultRevision = revision;
        command.resultSucceeded = true;
        switch (command.kind)
        {
            case WriteCommand.LEASE_GRANT:
            {
                final Lease lease = leases.grant(command.lease, command.leaseTtlSeconds, now);
                command.resultValue = new LeaseGrant(lease.id(), lease.ttlSeconds());
                command.leaseRecord = WriteCommand.LEASE_GRANTED;
                command.leaseRecordId = lease.id();
                command.leaseRecordTtlSeconds = lease.ttlSeconds();
                break;
            }
            case WriteCommand.LEASE_KEEP_ALIVE:
            {
                final Lease lease = leases.find(command.lease);
                if (lease == null)
                {
                    throw new LeaseNotFoundException(command.lease);
                }
                if (lease.deadlineMillis() <= now)
                {
                    endOnKeepAlive(command, lease, now);
                    break;
                }
                leases.renew(lease, now);
                command.resultValue = lease.ttlSeconds();
                break;
            }
            case WriteCommand.LEASE_REVOKE:
            {
                final Lease lease = leases.find(command.lease);
                if (lease == null)
                {
                    throw new LeaseNotFoundException(command.lease);
                }
                end(command, lease);
                break;
            }
            case WriteCommand.LEASE_EXPIRE:
            {
                final Lease lease = leases.firstDue(now);
                command.resultSucceeded = lease != null;
                if (lease != null)
                {
                    endDue(command, lease, now);
                }
                break;
            }
            case WriteCommand.LEASE_TIME_TO_LIVE:
            {
                final Lease lease = leases.find(command.lease);
                if (lease == null)
                {
                    throw new LeaseNotFoundException(command.lease);
                }
                final List<byte[]> keys = new ArrayList<>(command.leaseWithKeys ? lease.keyCount() : 0);
                for (int i = 0; command.leaseWithKeys && i < lease.keyCount(); i++)
                {
                    keys.add(lease.key(i).clone());
                }
                command.resultValue = new LeaseTimeToLive(lease.id(), lease.ttlSeconds(), lease.deadlineMillis() - now, keys);
                break;
            }
            default:
                command.resultValue = leases.ids();
                break;
        }
    }

    /**
     * Ends a due lease. One whose keys the journal cannot delete in one revision is postponed by its
     * TTL before the refusal goes back: as the first due it would otherwise stop every lease due
     * after it from expiring, and the timer would retry (and warn) at every check.
     */
    private void endDue(final WriteCommand command, final Lease lease, final long now)
    {
        try
        {
            end(command, lease);
        }
        catch (final RevisionTooLargeException e)
        {
            leases.renew(lease, now);
            throw e;
        }
    }

    /**
     * A keep-alive for a lease already due ends it, then is refused: etcd's lessor makes such a
     * renewal wait for the revocation, so a caller told "not found" never finds the lease's keys
     * afterwards. One whose keys the journal cannot delete in one revision is postponed as
     * {@link #endDue} does, and the keep-alive answers the renewal that postponing is.
     */
    private void endOnKeepAlive(final WriteCommand command, final Lease lease, final long now)
    {
        try
        {
            end(command, lease);
        }
        catch (final RevisionTooLargeException e)
        {
            leases.renew(lease, now);
            command.resultValue = lease.ttlSeconds();
            return;
        }
        // Set, not thrown: the end's revision is published and journaled as any other.
        command.resultError = new LeaseNotFoundException(lease.id());
    }

    /**
     * Ends a lease: deletes its keys, in key order, under one revision (none when it held no key),
     * then forgets it. Measured against the journal's cap first, so a refused end changes nothing.
     */
    private void end(final WriteCommand command, final Lease lease)
    {
        final int count = lease.keyCount();
        if (count > 0 && sizer.isBounded())
        {
            sizer.begin();
            for (int i = 0; i < count; i++)
            {
                final byte[] key = lease.key(i);
                command.key.putBytes(0, key);
                sizer.add(key.length, 0, index.get(command.key, 0, key.length, probe) ? probe.valueLength() : 0);
            }
            sizer.check();
        }
        // Out of the table first: deleting its keys then detaches nothing from it.
        leases.remove(lease);
        for (int i = 0; i < count; i++)
        {
            final byte[] key = lease.key(i);
            command.key.putBytes(0, key);
            deleteOne(command, command.key, key.length, false);
        }
        command.resultDeleted = count;
        command.resultRevision = mutating ? revision + 1 : revision;
        command.leaseRecord = WriteCommand.LEASE_ENDED;
        command.leaseRecordId = lease.id();
    }

    private long deleteOne(final WriteCommand command, final DirectBuffer key, final int keyLength, final boolean prevKv)
    {
        if (!index.get(key, 0, keyLength, probe))
        {
            return 0;
        }
        if (!mutating && sizer.mustMeasureSingleChanges())
        {
            sizer.begin();
            sizer.add(keyLength, 0, probe.valueLength());
            sizer.check();
        }
        final long next = beginMutation(command);
        index.remove(key, 0, keyLength, prev);
        appendDelete(command, next, key, keyLength, prevKv);
        return 1;
    }

    private long deleteRange(
        final WriteCommand command, final DirectBuffer from, final int fromLength, final DirectBuffer to, final int toLength,
        final boolean prevKv)
    {
        doomedOffsets.clear();
        doomedBytes = 0;
        sizer.begin();
        index.scan(from, 0, fromLength, to, 0, toLength, 0, collectDoomed);
        final int count = doomedOffsets.size();
        if (count == 0)
        {
            return 0;
        }
        if (!mutating)
        {
            // Inside a transaction the whole branch was measured before its first change.
            sizer.check();
        }
        final long next = beginMutation(command);
        for (int i = 0; i < count; i++)
        {
            final int offset = doomedOffsets.getInt(i);
            final int end = i + 1 < count ? doomedOffsets.getInt(i + 1) : doomedBytes;
            doomedKey.wrap(doomedKeys, offset, end - offset);
            index.remove(doomedKey, 0, end - offset, prev);
            appendDelete(command, next, doomedKey, end - offset, prevKv);
        }
        return count;
    }

    private boolean collectDoomed(final IndexEntry entry)
    {
        doomedOffsets.addInt(doomedBytes);
        doomedKeys.putBytes(doomedBytes, entry.key(), 0, entry.keyLength());
        doomedBytes += entry.keyLength();
        if (sizer.isBounded())
        {
            sizer.add(entry.keyLength(), 0, entry.valueLength());
        }
        return true;
    }

    private void appendDelete(
        final WriteCommand command, final long next, final DirectBuffer key, final int keyLength, final boolean prevKv)
    {
        secondary.onChange(next, key, keyLength, prev, null, 0);
        leases.detach(prev.lease(), key, keyLength);
        final ChangeRecord changes = command.changes;
        changes.add(EventType.DELETE, key, 0, keyLength, null, 0, 0, 0, 0, 0, 0,
            prev.value(), 0, prev.valueLength(), prev.createRevision(), prev.modRevision(), prev.version(), prev.lease());
        window.append(next, changes, batchNanos);
        if (prevKv)
        {
            if (command.resultPrevKvs == null)
            {
                command.resultPrevKvs = new ArrayList<>();
            }
            command.resultPrevKvs.add(copyOf(prev));
        }
    }

    private long beginMutation(final WriteCommand command)
    {
        final long next = revision + 1;
        if (!mutating)
        {
            command.changes.clear();
            if (journal != null)
            {
                command.journalRevision = next;
            }
            mutating = true;
            if (!groupAnnounced)
            {
                // Once per flush group: the group's revisions keep the pre-images of every read pinned
                // before a reader missed this, and a reader that saw it waits for the group's end.
                groupAnnounced = true;
                cursor.announce(next);
            }
        }
        return next;
    }

    private void finishRevision(final WriteCommand command)
    {
        if (mutating)
        {
            revision++;
            mutating = false;
            // Pinned reads: the pre-images they need, before the next revision begins.
            undo.onRevision(revision, command.changes);
            if (!publishes)
            {
                command.windowSequence = window.appendedSequence();
            }
        }
    }

    private static KeyValue copyOf(final IndexEntry entry)
    {
        return new KeyValue(entry.keyBytes(), entry.valueBytes(), entry.createRevision(), entry.modRevision(), entry.version(),
            entry.lease());
    }
}
