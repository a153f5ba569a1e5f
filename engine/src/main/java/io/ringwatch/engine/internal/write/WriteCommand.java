package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.errors.RingWatchException;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.ringbuffer.ChangeRecord;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.List;

/**
 * One slot of the write ring: a producer fills the request half, the writer fills the result
 * half and completes it. Pre-allocated by the Disruptor and reused: its buffers grow to the
 * largest key and value seen and then stop allocating. Owned by one producer while claimed,
 * then by the writer thread.
 */
final class WriteCommand
{
    static final int NOOP = 0;
    static final int PUT = 1;
    static final int DELETE = 2;
    static final int TXN = 3;
    /** Lease commands (issue 15): decided by the writer from the time the command carries. */
    static final int LEASE_GRANT = 4;
    static final int LEASE_REVOKE = 5;
    static final int LEASE_KEEP_ALIVE = 6;
    /** End the lease due first at the command's time, if any. */
    static final int LEASE_EXPIRE = 7;
    static final int LEASE_TIME_TO_LIVE = 8;
    static final int LEASE_LIST = 9;

    /** Range end modes of a delete. */
    static final int SINGLE_KEY = 0;
    static final int BOUNDED = 1;
    static final int UNBOUNDED = 2;

    /** A put with no expectation on the key's mod revision. */
    static final long ANY_REVISION = -1;

    /** The ring sequence this slot was claimed at, so the producer can publish it. */
    long sequence;
    int kind;
    /**
     * The largest key, range end or value buffer a slot keeps from one command to the next: a slot
     * that once carried a huge value would otherwise hold that much heap for the engine's life, in
     * each of the ring's slots (4,096 slots of 1 MiB values: 4 GiB). Values up to this size reuse
     * their slot's buffer without allocating; a larger one is dropped once its command is complete
     * ({@link #trim()}).
     */
    static final int RETAINED_BYTES = 32 * 1024;

    ExpandableArrayBuffer key = new ExpandableArrayBuffer(64);
    int keyLength;
    ExpandableArrayBuffer rangeEnd = new ExpandableArrayBuffer(64);
    int rangeEndLength;
    int rangeMode;
    ExpandableArrayBuffer value = new ExpandableArrayBuffer(128);
    int valueLength;
    long expectedModRevision;
    boolean prevKv;
    /** A put's lease (0: none), or the lease a lease command names. */
    long lease;
    /** A put that keeps its key's lease (etcd's ignore_lease). */
    boolean ignoreLease;
    long leaseTtlSeconds;
    /** A lease command's time, from the lease clock, stamped by its producer. */
    long leaseNowMillis;
    boolean leaseWithKeys;
    Txn txn;
    WriteCompletion completion;
    WriteCallback callback;
    /** When the command entered (wall clock, ms), stamped by its producer: the writer reads no clock. */
    long timestampMillis;

    /** No lease record for the journal. */
    static final byte NO_LEASE_RECORD = 0;
    static final byte LEASE_GRANTED = 1;
    static final byte LEASE_ENDED = 2;
    /** What the journal records of the lease table for this command, after its revision if any. */
    byte leaseRecord;
    long leaseRecordId;
    long leaseRecordTtlSeconds;

    /** The revision the writer gave this command's changes, 0 when it changed nothing. */
    long journalRevision;
    /** The window sequence of the revision's last event: what the durability gate publishes up to. */
    long windowSequence;
    /** The revision's changes, for the journal stage and a roll-back. */
    final ChangeRecord changes = new ChangeRecord();

    long resultRevision;
    boolean resultSucceeded;
    long resultDeleted;
    List<KeyValue> resultPrevKvs;
    TxnResult resultTxn;
    /** A lease command's result. */
    Object resultValue;
    RingWatchException resultError;

    /**
     * Resets the slot for a new command of {@code kind} that {@code completion} or
     * {@code callback} hears of (either may be null). The two references are stored only when they
     * differ from the slot's last ones: the slots live in the old generation, and with G1 every
     * store of a reference into an old object across regions dirties a card that a refinement
     * thread must then scan, about half a core at a million puts a second on two cores (async-profiler,
     * {@code G1 Refine}), while a producer that writes with the same callback or blocking completion
     * again and again would store the same reference each time. The other references are cleared
     * (a null store costs no card).
     */
    void reset(final int kind, final WriteCompletion completion, final WriteCallback callback)
    {
        this.kind = kind;
        if (this.completion != completion)
        {
            this.completion = completion;
        }
        if (this.callback != callback)
        {
            this.callback = callback;
        }
        keyLength = 0;
        rangeEndLength = 0;
        rangeMode = SINGLE_KEY;
        valueLength = 0;
        expectedModRevision = ANY_REVISION;
        prevKv = false;
        lease = 0;
        ignoreLease = false;
        leaseTtlSeconds = 0;
        leaseNowMillis = 0;
        leaseWithKeys = false;
        txn = null;
        timestampMillis = 0;
        journalRevision = 0;
        leaseRecord = NO_LEASE_RECORD;
        resultRevision = 0;
        resultSucceeded = false;
        resultDeleted = 0;
        resultPrevKvs = null;
        resultTxn = null;
        resultValue = null;
        resultError = null;
    }

    /**
     * Hands the result to whoever waits for it: the blocking producer, its future, or its
     * callback (whose failure is swallowed: the write itself stands). The thread that completes
     * the write ring's commands: the writer in memory, the journal stage in a durable engine. A
     * {@link #NOOP} (a slot whose producer failed while filling it) has no one to tell. Then lets
     * go of the key, range end, value and change record buffers that grew past their retained
     * sizes ({@link #trim()}): nothing reads them once the command is complete, and the thread that
     * completes it still holds the slot, which no producer reuses before that thread moves on.
     */
    void complete()
    {
        try
        {
            tell();
        }
        finally
        {
            trim();
        }
    }

    /**
     * Replaces each buffer grown past {@link #RETAINED_BYTES} (the change record's past
     * {@link ChangeRecord#RETAINED_CAPACITY}) with a small one. The completing thread; allocates
     * only then. The ring's hand-overs (this thread's sequence, a producer's claim and publish)
     * order these stores before the slot's next use.
     */
    void trim()
    {
        if (key.capacity() > RETAINED_BYTES)
        {
            key = new ExpandableArrayBuffer(64);
        }
        if (rangeEnd.capacity() > RETAINED_BYTES)
        {
            rangeEnd = new ExpandableArrayBuffer(64);
        }
        if (value.capacity() > RETAINED_BYTES)
        {
            value = new ExpandableArrayBuffer(128);
        }
        changes.trim();
    }

    private void tell()
    {
        if (kind == NOOP)
        {
            return;
        }
        if (callback == null)
        {
            if (completion != null)
            {
                completion.complete(this);
            }
            return;
        }
        try
        {
            if (resultError != null)
            {
                callback.onFailed(resultError);
            }
            else
            {
                callback.onWritten(resultRevision, resultSucceeded, resultDeleted);
            }
        }
        catch (final RuntimeException | Error ignore)
        {
            // A user callback's failure, an Error included, must not stop the thread that
            // completes writes (the writer, or the journal stage).
        }
    }

    void key(final DirectBuffer src, final int offset, final int length)
    {
        key.putBytes(0, src, offset, length);
        keyLength = length;
    }

    void key(final byte[] src)
    {
        key.putBytes(0, src);
        keyLength = src.length;
    }

    void value(final DirectBuffer src, final int offset, final int length)
    {
        value.putBytes(0, src, offset, length);
        valueLength = length;
    }

    void value(final byte[] src)
    {
        value.putBytes(0, src);
        valueLength = src.length;
    }

    void rangeEnd(final byte[] src)
    {
        rangeEnd.putBytes(0, src);
        rangeEndLength = src.length;
    }
}
