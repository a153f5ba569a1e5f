package io.ringwatch.ringbuffer;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.NanoClock;

/**
 * A cyclic, revision-addressed buffer of recent change events: what the Kubernetes watch cache
 * keeps in memory, with one writer and any number of concurrent readers.
 * <p>
 * <b>Writer.</b> Exactly one thread calls {@link #append(long, ChangeRecord)} and {@link #publish()}. Each appended
 * event gets the next sequence (dense, from 0); appended events become visible to readers only
 * at the next {@code publish()}, so a transaction's events appear together. Appending never
 * waits for a reader.
 * <p>
 * <b>Readers.</b> Any number of threads, each keeping its own next sequence; the window keeps no
 * reader state. A reader that falls behind is lapped: its events are overwritten and
 * {@link #read} reports {@link #READ_LAPPED}. Loss is not an error of the window; the reader
 * recovers from elsewhere (the revision log) and rejoins at {@link #oldestSequence()} or
 * {@link #firstSequenceAtOrAfter(long)}. A read never returns a torn or mixed event: it copies,
 * then validates behind a load fence, as Agrona's {@code BroadcastReceiver} does.
 * <p>
 * <b>Capacity.</b> Starts at {@link WindowConfig#minCapacity()} events and resizes on the writer
 * thread, inside {@code append}, by the Kubernetes rule: when the window is full, double if its
 * oldest event is younger than the freshness duration, halve if the event a quarter of the
 * capacity back from the newest is older. Event bytes live in a data ring sized by
 * {@link WindowConfig#dataCapacityFor(int)}; when large events would overwrite bytes of older
 * events still held, those are evicted first, so the window may hold fewer events than its
 * capacity (data pressure alone does not trigger growth; size the ring with
 * {@link WindowConfig#dataBytesPerEvent()}). A resize copies the retained events into a new
 * generation of storage and publishes it; a reader that raced the resize retries on the new one
 * and reports lapped only when the event is really gone.
 * <p>
 * <b>Allocation.</b> None per append or read in steady state; a resize allocates the new
 * generation and copies up to its capacity of events on the writer thread, unless another thread
 * built the larger generation ahead of time ({@link #prepareGrowth()}): allocating and zeroing
 * direct memory is most of a growth's cost (46 MiB and 45 to 90 ms on the team's 2-core VM for
 * 131,072 events), and the writer then only copies. The same thread can also copy the published
 * events into it ahead ({@link #copyAhead(int)}); the writer then copies only the events appended
 * since its last chunk, and switches.
 */
public final class WatchWindow
{
    /** {@link #read} result: the event was copied and is consistent. */
    public static final int READ_OK = 0;
    /** {@link #read} result: the sequence is newer than {@link #publishedSequence()}. */
    public static final int READ_NOT_PUBLISHED = 1;
    /** {@link #read} result: the event was overwritten or evicted; the record holds undefined content. */
    public static final int READ_LAPPED = 2;
    /** {@link #firstSequenceAtOrAfter} result: events of that revision may have left the window. */
    public static final long REVISION_EVICTED = -1;

    /** Internal result of a revision search that met an overwritten event. */
    private static final long SEARCH_RACED = -2;
    /** Most events {@link #copyAhead(int)} copies while holding the prepared generation once. */
    private static final int COPY_CHUNK = 1024;

    private final WindowConfig config;
    private final NanoClock clock;
    private final CapacityPolicy capacityPolicy;
    private final int maxEventBytes;
    private final PaddedSequence publishedSequence = new PaddedSequence(-1);
    private final PaddedSequence publishedRevision = new PaddedSequence(0);
    private final PaddedSequence growCount = new PaddedSequence(0);
    private final PaddedSequence shrinkCount = new PaddedSequence(0);
    private final PaddedSequence dataEvictionCount = new PaddedSequence(0);
    private final PaddedSequence preparedGrowthCount = new PaddedSequence(0);
    private volatile Generation generation;
    /** The capacity the writer expects to grow to next, 0 for none: what {@link #prepareGrowth()} builds. */
    private volatile int spareWanted;
    /** Run on the writer thread when it starts to expect a growth; null for none. */
    private volatile Runnable growthExpected;
    /** A generation of {@code spareWanted} events built (and filled) ahead of time, taken by the writer's next growth. */
    private final AtomicReference<PreparedGeneration> spare = new AtomicReference<>();
    /** {@link #prepareGrowth()}'s thread only: a capacity it found no direct memory for. */
    private int spareRefused;
    /** Written by the writer only: events it copied at its growths (the rest the copier had copied). */
    private final PaddedSequence growthCopyCount = new PaddedSequence(0);

    /** Writer thread only: the generation it writes, equal to {@code generation}. */
    private Generation writerGeneration;
    /** Writer thread only: the sequence the next append gets. */
    private long nextSequence;
    /** Writer thread only: the revision of the last append, 0 before any. */
    private long lastRevision;
    /**
     * Writer thread only: the stamp of the newest quarter's first event at the last look that
     * changed nothing at the upper bound, valid once {@code sawQuarter}. A window at its upper
     * bound can only shrink, when that event is staler than freshness; stamps never decrease, so
     * until the clock passes this stamp plus freshness a full window need not look again (a
     * look reads an event a quarter of the window back, a cache miss per append).
     */
    private long quarterStampAtBound;
    private boolean sawQuarter;

    /**
     * Creates an empty window at the minimum capacity. Any thread; allocates the first
     * generation (slot and data rings, direct memory).
     *
     * @param config the window's settings.
     * @param clock  time source for event timestamps and resize decisions; injected so tests
     *               can drive resizing.
     * @throws NullPointerException if an argument is null.
     */
    public WatchWindow(final WindowConfig config, final NanoClock clock)
    {
        this(config, clock, 0);
    }

    /**
     * Creates an empty window that continues a history whose revisions up to
     * {@code baseRevision} it never held, as after a restart that recovered them from a log: it
     * reports them evicted ({@link #firstSequenceAtOrAfter} answers {@link #REVISION_EVICTED}),
     * so no reader mistakes them for the future. Any thread; allocates the first generation.
     *
     * @param config       the window's settings.
     * @param clock        time source for event timestamps and resize decisions.
     * @param baseRevision the newest revision before the window's first event, 0 or more.
     * @throws NullPointerException     if {@code config} or {@code clock} is null.
     * @throws IllegalArgumentException if {@code baseRevision} is negative.
     */
    public WatchWindow(final WindowConfig config, final NanoClock clock, final long baseRevision)
    {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (baseRevision < 0)
        {
            throw new IllegalArgumentException("baseRevision must not be negative: " + baseRevision);
        }
        this.capacityPolicy = new CapacityPolicy(config);
        this.maxEventBytes = config.maxEventBytes();
        final int capacity = config.minCapacity();
        writerGeneration = new Generation(capacity, config.dataCapacityFor(capacity), maxEventBytes, 0, baseRevision);
        generation = writerGeneration;
        lastRevision = baseRevision;
        publishedRevision.set(baseRevision);
    }

    /**
     * Appends the change {@code change} is positioned on as one event, invisible to readers until
     * {@link #publish()}. The record already stores a DELETE without value, createRevision and
     * version, and a change without previous key-value without its previous value and revisions
     * (see {@link ChangeRecord}); the window copies its bytes in one piece. Writer thread only; no
     * allocation unless the window resizes.
     *
     * @param revision the event's revision, positive and not below the previous one.
     * @param change   positioned on the change to append (by {@code add} or {@code next}); left
     *                 where it is. For a PUT its createRevision must be in [1, revision] and its
     *                 version positive; its prevModRevision in [0, revision]; its key not empty.
     * @return the event's sequence.
     * @throws EventTooLargeException if key, value and previous value exceed
     *                                {@link WindowConfig#maxEventBytes()}; nothing changes.
     * @throws InvalidEventException  for any other malformed change; nothing changes.
     */
    public long append(final long revision, final ChangeRecord change)
    {
        return append(revision, change, clock.nanoTime());
    }

    /**
     * Appends as {@link #append(long, ChangeRecord)} does, stamping the event with a time the
     * caller read from this window's clock ({@link #clockNanos()}): a writer that appends many
     * events in one batch reads the clock once for all of them. The time only feeds the window's
     * resize rules, which work in seconds. Writer thread only; no allocation unless the window
     * resizes.
     *
     * @param revision       as for {@link #append(long, ChangeRecord)}.
     * @param change         as for {@link #append(long, ChangeRecord)}.
     * @param timestampNanos the event's time, from {@link #clockNanos()}, not before the previous event's.
     * @return the event's sequence.
     * @throws EventTooLargeException as for {@link #append(long, ChangeRecord)}; nothing changes.
     * @throws InvalidEventException  as for {@link #append(long, ChangeRecord)}; nothing changes.
     */
    public long append(final long revision, final ChangeRecord change, final long timestampNanos)
    {
        if (revision <= 0 || revision < lastRevision)
        {
            throw new InvalidEventException(
                "revision " + revision + " must be positive and not below the last appended " + lastRevision);
        }
        final int keyLength = change.keyLength();
        if (keyLength < 1)
        {
            throw new InvalidEventException("key must not be empty, as in etcd: keyLength=" + keyLength);
        }
        final boolean isPut = ChangeRecord.PUT == change.typeCode();
        final long createRevision = change.createRevision();
        final long version = change.version();
        if (isPut && (createRevision < 1 || createRevision > revision || version < 1))
        {
            throw new InvalidEventException("PUT needs createRevision in [1, " + revision +
                "] and a positive version: createRevision=" + createRevision + ", version=" + version);
        }
        final long prevModRevision = change.prevModRevision();
        if (prevModRevision < 0 || prevModRevision > revision)
        {
            throw new InvalidEventException(
                "prevModRevision " + prevModRevision + " must be in [0, " + revision + "]");
        }
        final int valueLength = change.valueLength();
        final int prevValueLength = change.prevValueLength();
        final long eventBytes = (long)keyLength + valueLength + prevValueLength;
        if (eventBytes > maxEventBytes)
        {
            throw new EventTooLargeException(eventBytes, maxEventBytes);
        }

        final long sequence = nextSequence;
        Generation gen = writerGeneration;
        if (sequence - gen.writerOldest() == gen.capacity)
        {
            gen = resizeIfDue(gen, sequence, timestampNanos);
        }
        if (sequence - gen.writerOldest() == gen.capacity / 2)
        {
            expectGrowth(gen, timestampNanos);
        }
        final int dataEvictions = gen.write(
            sequence, revision, isPut ? EventType.PUT.code() : EventType.DELETE.code(), timestampNanos,
            change.buffer(), change.bytesOffset(), keyLength, valueLength, prevValueLength,
            createRevision, version,
            change.prevCreateRevision(), prevModRevision, change.prevVersion(), change.lease(), change.prevLease());
        countDataEvictions(dataEvictions);
        nextSequence = sequence + 1;
        lastRevision = revision;
        return sequence;
    }

    /**
     * @return the time on this window's clock, for {@link #append(long, ChangeRecord, long)}. Any
     * thread; no allocation.
     */
    public long clockNanos()
    {
        return clock.nanoTime();
    }

    /**
     * Makes every appended event visible to readers. Writer thread only; no allocation; cheap
     * (two release stores) and a no-op when nothing was appended since the last call.
     */
    public void publish()
    {
        final long last = nextSequence - 1;
        if (last != publishedSequence.getPlain())
        {
            // Revision first: a reader that sees a sequence then sees at least its revision.
            publishedRevision.set(lastRevision);
            publishedSequence.set(last);
        }
    }

    /**
     * Makes the appended events up to {@code sequence} visible to readers, as {@link #publish()}
     * does for all of them: the visibility gate of a durable engine, where the thread that knows
     * a revision is durable publishes it, behind the writer that appends. ONE thread publishes a
     * window, either the writer through {@link #publish()} or one gate thread through this method,
     * never both. No allocation.
     *
     * @param sequence the last sequence to publish, appended already ({@link #appendedSequence()}
     *                 read on the writer thread and handed over behind a release); not below the
     *                 published one.
     * @param revision the revision of that event.
     */
    public void publish(final long sequence, final long revision)
    {
        if (sequence > publishedSequence.getPlain())
        {
            publishedRevision.set(revision);
            publishedSequence.set(sequence);
        }
    }

    /**
     * The newest appended sequence, published or not. Writer thread only; no allocation.
     *
     * @return the sequence of the last append, -1 before any.
     */
    public long appendedSequence()
    {
        return nextSequence - 1;
    }

    /**
     * Copies an appended event, published or not, into {@code into}: how the writer reads back
     * what it appended before a gate has published it. Writer thread only; no allocation once the
     * record's buffers are big enough.
     *
     * @param sequence the sequence to read, not negative.
     * @param into     the record to fill.
     * @return {@link #READ_OK}, {@link #READ_NOT_PUBLISHED} for a sequence not appended yet, or
     * {@link #READ_LAPPED}.
     * @throws IllegalArgumentException if {@code sequence} is negative.
     */
    public int readAppended(final long sequence, final EventRecord into)
    {
        if (sequence < 0)
        {
            throw new IllegalArgumentException("sequence must not be negative: " + sequence);
        }
        if (sequence >= nextSequence)
        {
            return READ_NOT_PUBLISHED;
        }
        return writerGeneration.read(sequence, into, true) ? READ_OK : READ_LAPPED;
    }

    /**
     * The newest published sequence. Any thread; no allocation.
     *
     * @return the sequence, or -1 when nothing has been published.
     */
    public long publishedSequence()
    {
        return publishedSequence.get();
    }

    /**
     * The revision of the newest published event. Any thread; no allocation.
     *
     * @return the revision, or 0 when nothing has been published.
     */
    public long publishedRevision()
    {
        return publishedRevision.get();
    }

    /**
     * The oldest sequence still readable; only a hint, since the writer moves it on. Any thread;
     * no allocation.
     *
     * @return the oldest readable sequence, or {@code publishedSequence() + 1} when no published
     * event is held.
     */
    public long oldestSequence()
    {
        final long oldest = generation.oldestIntact();
        return Math.min(oldest, publishedSequence.get() + 1);
    }

    /**
     * The revision of the oldest readable event; a hint, like {@link #oldestSequence()}. Any
     * thread; no allocation; lock-free (retries only if the writer moved on meanwhile).
     *
     * @return the revision, or 0 when no published event is held.
     */
    public long oldestRevision()
    {
        while (true)
        {
            final Generation gen = generation;
            final long published = publishedSequence.get();
            final long oldest = gen.oldestIntact();
            if (oldest > published)
            {
                return 0;
            }
            final long revision = gen.revisionAt(oldest);
            if (0 != revision)
            {
                return revision;
            }
        }
    }

    /**
     * Copies event {@code sequence} into {@code into}. Any thread (each with its own record); no
     * allocation once the record's buffers are big enough; lock-free.
     *
     * @param sequence the sequence to read, not negative.
     * @param into     the record to fill.
     * @return {@link #READ_OK}, {@link #READ_NOT_PUBLISHED} or {@link #READ_LAPPED}; only with
     * {@code READ_OK} does {@code into} hold the event.
     * @throws IllegalArgumentException if {@code sequence} is negative.
     */
    public int read(final long sequence, final EventRecord into)
    {
        return read(sequence, into, true);
    }

    /**
     * Copies event {@code sequence}'s metadata and key into {@code into}, but not its value or
     * previous value: what a router needs, at a fraction of the copying. Validated exactly like
     * {@link #read}. Afterwards {@code into}'s value lengths are set but its value buffers hold
     * stale bytes. Any thread (each with its own record); no allocation; lock-free.
     *
     * @param sequence the sequence to read, not negative.
     * @param into     the record to fill.
     * @return {@link #READ_OK}, {@link #READ_NOT_PUBLISHED} or {@link #READ_LAPPED}.
     * @throws IllegalArgumentException if {@code sequence} is negative.
     */
    public int readKey(final long sequence, final EventRecord into)
    {
        return read(sequence, into, false);
    }

    private int read(final long sequence, final EventRecord into, final boolean withValues)
    {
        if (sequence < 0)
        {
            throw new IllegalArgumentException("sequence must not be negative: " + sequence);
        }
        while (true)
        {
            final Generation gen = generation;
            if (sequence > publishedSequence.get())
            {
                return READ_NOT_PUBLISHED;
            }
            if (gen.read(sequence, into, withValues))
            {
                return READ_OK;
            }
            if (gen == generation)
            {
                return READ_LAPPED;
            }
        }
    }

    /**
     * Finds where a watch from {@code revision} starts: the first published event whose revision
     * is at or after it. Any thread; no allocation; O(log capacity); lock-free.
     *
     * @param revision the first revision wanted, positive.
     * @return that event's sequence; {@code publishedSequence() + 1} if every published event is
     * older; {@link #REVISION_EVICTED} if an event of that revision or newer has been evicted, so
     * the window cannot serve the watch on its own.
     * @throws IllegalArgumentException if {@code revision} is not positive.
     */
    public long firstSequenceAtOrAfter(final long revision)
    {
        if (revision <= 0)
        {
            throw new IllegalArgumentException("revision must be positive: " + revision);
        }
        while (true)
        {
            final Generation gen = generation;
            final long published = publishedSequence.get();
            if (revision > publishedRevision.get())
            {
                return published + 1;
            }
            final long oldest = gen.oldestIntact();
            if (revision <= gen.evictedRevision())
            {
                return REVISION_EVICTED;
            }
            final long found = searchAtOrAfter(gen, revision, oldest, published);
            if (SEARCH_RACED == found)
            {
                continue;
            }
            // The search took time: events of the revision may have been evicted meanwhile.
            if (revision <= generation.evictedRevision())
            {
                return REVISION_EVICTED;
            }
            return found;
        }
    }

    /**
     * The current capacity in events. Any thread; no allocation.
     *
     * @return a power of two between the configured bounds.
     */
    public int capacity()
    {
        return generation.capacity;
    }

    /**
     * The current size of the data ring. Any thread; no allocation.
     *
     * @return bytes, a power of two.
     */
    public int dataCapacity()
    {
        return generation.dataCapacity;
    }

    /**
     * How many times the window doubled. Any thread; no allocation.
     *
     * @return the count.
     */
    public long growCount()
    {
        return growCount.get();
    }

    /**
     * @return how many growths took a generation {@link #prepareGrowth()} had built, allocating
     * nothing on the writer thread (of {@link #growCount()}). Any thread; a racy read.
     */
    public long preparedGrowthCount()
    {
        return preparedGrowthCount.get();
    }

    /**
     * How many times the window halved. Any thread; no allocation.
     *
     * @return the count.
     */
    public long shrinkCount()
    {
        return shrinkCount.get();
    }

    /**
     * How many times the window resized either way. Any thread; no allocation.
     *
     * @return {@link #growCount()} plus {@link #shrinkCount()}.
     */
    public long resizeCount()
    {
        return growCount.get() + shrinkCount.get();
    }

    /**
     * How many events were evicted before their slot was reused because the data ring was full;
     * if it climbs, raise {@link WindowConfig#dataBytesPerEvent()}. Any thread; no allocation.
     *
     * @return the count.
     */
    public long dataEvictionCount()
    {
        return dataEvictionCount.get();
    }

    /**
     * The settings this window was built with. Any thread; no allocation.
     *
     * @return the config.
     */
    public WindowConfig config()
    {
        return config;
    }

    /**
     * Builds the generation the writer expects to grow to next, if it expects one and it is not
     * built yet, so that the growth does not allocate on the writer thread. Call it from one
     * thread other than the writer, now and then (the engine's housekeeper does, every
     * millisecond while the engine is busy, and when {@link #onGrowthExpected(Runnable)} wakes it);
     * a window whose growth nobody prepared allocates inside {@code append}, as
     * without this call. The writer asks for the next capacity when the window is half full and
     * filled that half in less than half the freshness duration: at that pace the window will be
     * full while its oldest event is still fresh, and doubles then.
     *
     * @return true if this call built a generation (it allocated its direct memory); false when
     * none is expected, the expected one is ready, or there was no direct memory for it.
     */
    public boolean prepareGrowth()
    {
        final int wanted = spareWanted;
        final Generation source = generation;
        final PreparedGeneration ready = spare.get();
        if (wanted == 0 || wanted == spareRefused ||
            (ready != null && ready.target.capacity == wanted && ready.source == source))
        {
            return false;
        }
        final PreparedGeneration built;
        try
        {
            built = new PreparedGeneration(
                source, new Generation(wanted, config.dataCapacityFor(wanted), maxEventBytes, 0, 0));
        }
        catch (final OutOfMemoryError e)
        {
            // No direct memory for it now: not again for this capacity; the growth itself tries
            // once more on the writer thread and fails there as it would have without this call.
            spareRefused = wanted;
            return false;
        }
        spare.set(built);
        if (spareWanted != wanted)
        {
            // The writer resized while this one was built: it would never be taken.
            spare.compareAndSet(built, null);
        }
        return true;
    }

    /**
     * Copies the published events of the window into the generation {@link #prepareGrowth()}
     * built, ahead of the growth, so that the writer then copies only the events appended since:
     * a few instead of up to half the new capacity. Call it from the thread that calls
     * {@code prepareGrowth()}, after it. It copies in chunks of {@value #COPY_CHUNK} events, holding
     * the prepared generation for one chunk at a time; a writer that grows meanwhile does not wait
     * but builds its own generation then, and this chunk is lost. The writer may overwrite what is
     * being copied (its data ring evicting, or a full window that did not grow after all): each
     * copy is validated as a reader's is, and the copy restarts at the oldest event still held. No
     * allocation.
     *
     * @param maxEvents the most events to copy in this call, positive: bounds the time it takes.
     * @return how many events it copied, 0 when no generation is prepared or it is up to date.
     * @throws IllegalArgumentException if {@code maxEvents} is not positive.
     */
    public int copyAhead(final int maxEvents)
    {
        if (maxEvents <= 0)
        {
            throw new IllegalArgumentException("maxEvents must be positive: " + maxEvents);
        }
        int copied = 0;
        while (copied < maxEvents)
        {
            final PreparedGeneration prepared = spare.get();
            if (prepared == null)
            {
                return copied;
            }
            final long published = publishedSequence.get();
            // Every event up to that sequence was written into the generation current after the read
            // of it: if that is not the source, the writer has resized and the prepared one is stale.
            // copiedUpTo is this thread's own field, read outside a claim.
            if (generation != prepared.source || published < prepared.copiedUpTo() || !prepared.claim())
            {
                return copied;
            }
            final int chunk = copyChunk(prepared, Math.min(COPY_CHUNK, maxEvents - copied), published);
            if (0 == chunk)
            {
                return copied;
            }
            copied += chunk;
        }
        return copied;
    }

    /**
     * Copier, having claimed {@code prepared}: copies up to {@code most} of the source's published
     * events that the target lacks, moving the target's start past any the source evicted meanwhile,
     * then releases it.
     *
     * @return how many events it copied.
     */
    private static int copyChunk(final PreparedGeneration prepared, final int most, final long published)
    {
        final Generation source = prepared.source;
        final Generation target = prepared.target;
        long next = prepared.copiedUpTo();
        int copied = 0;
        while (copied < most && next <= published)
        {
            final long oldest = source.oldestIntact();
            if (next < oldest)
            {
                // The events before it are gone from the source: the target starts after them.
                target.startAt(oldest, 0);
                next = oldest;
            }
            else if (source.copyTo(next, target, true) != Generation.NOT_HELD)
            {
                next++;
                copied++;
            }
            else if (source.oldestIntact() <= next)
            {
                // Not evicted, yet not there: cannot happen for a published event of the source;
                // stop rather than spin (nothing of it was written).
                break;
            }
        }
        prepared.release(next);
        return copied;
    }

    /**
     * @return how many events the writer itself copied at its growths, in all; with
     * {@link #copyAhead(int)} running, only those appended since its last chunk. Any thread; a racy read.
     */
    public long growthCopyCount()
    {
        return growthCopyCount.get();
    }

    /** Writer thread: the window is half full; asks for the doubled generation if it fills fast enough to grow. */
    private void expectGrowth(final Generation gen, final long timestampNanos)
    {
        final int next = gen.capacity * 2;
        if (next <= config.maxCapacity() && spareWanted != next &&
            timestampNanos - gen.writerTimestampAt(gen.writerOldest()) < config.freshnessNanos() / 2)
        {
            spareWanted = next;
            final Runnable listener = growthExpected;
            if (listener != null)
            {
                listener.run();
            }
        }
    }

    /**
     * Sets what the writer runs when it starts to expect a growth (once per growth), so that the
     * thread calling {@link #prepareGrowth()} need not poll for it: typically a wake-up of that
     * thread. Any thread; the listener runs on the writer thread, must be quick and not allocate.
     *
     * @param listener run when a growth becomes expected; null for none.
     */
    public void onGrowthExpected(final Runnable listener)
    {
        growthExpected = listener;
    }

    /**
     * Writer thread, at a resize of {@code gen}: fills the generation it switches to with the
     * events from {@code first} up to {@code sequence}; the prepared one if it was built for this
     * growth and the copier does not hold it now (then only the events it has not copied are
     * copied), else a new one.
     */
    private Generation fill(
        final Generation gen, final int capacity, final long first, final long evictedRevision, final long sequence)
    {
        final PreparedGeneration ready = spare.get();
        final Generation target;
        long start = first;
        long from = first;
        int dataEvictions = 0;
        if (ready != null && ready.source == gen && ready.target.capacity == capacity && ready.take())
        {
            target = ready.target;
            long evicted = evictedRevision;
            if (target.writerOldest() > first)
            {
                // Its own data ring evicted what the copier had copied first, as a fresh one would have.
                start = target.writerOldest();
                evicted = target.writerEvictedRevision();
                dataEvictions += (int)(start - first);
            }
            target.startAt(start, evicted);
            from = Math.max(start, ready.copiedUpTo());
            preparedGrowthCount.set(preparedGrowthCount.getPlain() + 1);
        }
        else
        {
            target = new Generation(capacity, config.dataCapacityFor(capacity), maxEventBytes, first, evictedRevision);
        }
        for (long s = from; s < sequence; s++)
        {
            dataEvictions += gen.copyTo(s, target, false);
        }
        if (capacity > gen.capacity)
        {
            growthCopyCount.set(growthCopyCount.getPlain() + (sequence - from));
        }
        countDataEvictions(dataEvictions);
        return target;
    }

    /**
     * Writer thread, at a resize: whatever was asked for or built before it is stale now. Only
     * this thread asks for a generation, so once {@code spareWanted} is 0 any spare is stale; the
     * volatile store before the clear pairs with {@link #prepareGrowth()}'s store and re-read, so
     * one of the two drops a generation built while the writer resized.
     */
    private void dropSpare()
    {
        spareWanted = 0;
        spare.set(null);
    }

    private Generation resizeIfDue(final Generation gen, final long sequence, final long timestampNanos)
    {
        final int capacity = gen.capacity;
        final boolean atBound = capacity == config.maxCapacity();
        if (atBound && sawQuarter && timestampNanos - quarterStampAtBound <= config.freshnessNanos())
        {
            return gen;
        }
        final long quarterStamp = gen.writerTimestampAt(sequence - capacity / 4);
        final int newCapacity = capacityPolicy.capacityWhenFull(
            capacity,
            timestampNanos,
            gen.writerTimestampAt(gen.writerOldest()),
            quarterStamp);
        if (newCapacity == capacity)
        {
            if (atBound)
            {
                quarterStampAtBound = quarterStamp;
                sawQuarter = true;
            }
            return gen;
        }
        final long oldest = gen.writerOldest();
        final long first = Math.max(oldest, sequence - newCapacity);
        final long evictedRevision = first > oldest ? gen.writerRevisionAt(first - 1) : gen.writerEvictedRevision();
        final Generation resized = fill(gen, newCapacity, first, evictedRevision, sequence);
        dropSpare();
        writerGeneration = resized;
        generation = resized;
        final PaddedSequence counter = newCapacity > capacity ? growCount : shrinkCount;
        counter.set(counter.getPlain() + 1);
        return resized;
    }

    private void countDataEvictions(final int dataEvictions)
    {
        if (dataEvictions > 0)
        {
            dataEvictionCount.set(dataEvictionCount.getPlain() + dataEvictions);
        }
    }

    /**
     * Binary search over [oldest, published] of one generation.
     *
     * @return the first sequence with a revision at or after {@code revision}, {@code published + 1}
     * if none, or {@link #SEARCH_RACED} if a probed event was overwritten (the caller retries).
     */
    private static long searchAtOrAfter(
        final Generation gen, final long revision, final long oldest, final long published)
    {
        // Unpublished appends may already have evicted every published event.
        long low = Math.min(oldest, published + 1);
        long high = published + 1;
        while (low < high)
        {
            final long middle = (low + high) >>> 1;
            final long middleRevision = gen.revisionAt(middle);
            if (0 == middleRevision)
            {
                return SEARCH_RACED;
            }
            if (middleRevision >= revision)
            {
                high = middle;
            }
            else
            {
                low = middle + 1;
            }
        }
        return low;
    }
}
