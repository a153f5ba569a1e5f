package io.ringwatch.engine.config;

import com.lmax.disruptor.WaitStrategy;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.errors.PersistenceUnavailableException;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import io.ringwatch.engine.idle.WakeableWaitStrategy;
import io.ringwatch.engine.lease.LeaseClock;
import io.ringwatch.engine.lease.Leases;
import io.ringwatch.engine.spi.Persistence;
import io.ringwatch.engine.spi.PersistenceProvider;
import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * How an engine is sized and how its threads wait. Immutable; build one with {@link #builder()}.
 * Defaults suit an embedded service on a small machine: the writer, dispatcher and delivery
 * threads spin for about a microsecond (the writer then yields a few times), then park until the
 * thread that hands them work wakes them ({@link WakeableWaitStrategy}, {@link WakeableIdleStrategy}), so an idle engine holds no
 * core and a hand-off to a parked thread costs a wake-up, not a timed park; after
 * {@value WakeableIdleStrategy#DEEP_IDLE_AFTER_NANOS} ns without work a park lasts up to
 * {@link WakeableIdleStrategy#DEEP_PARK_NANOS} instead of 1 ms, so an idle engine's threads wake
 * about ten times a second (work that falls due at a time, such as a progress notification, ends
 * a park early). On a machine of
 * {@value WakeableIdleStrategy#SPARE_CORE_PROCESSORS} or more available processors the dispatcher
 * and delivery threads also spin for {@value WakeableIdleStrategy#SPARE_CORE_SPIN_NANOS} ns
 * after their last work ({@link WakeableIdleStrategy#forHandOffs()}), so that under a steady
 * stream of events they hand on without wake-ups. For the lowest latency on cores of their own
 * choose busy-spin strategies instead.
 *
 * <p>Push listeners run on a pool of {@link #deliveryThreads()} threads, any of which takes the
 * next push watcher with events. A listener that blocks costs one thread: after
 * {@link #listenerBlockedAfter()} (2 ms; 50 ms for a call that keeps running) the pool starts
 * another in its place, up to {@link #maxDeliveryThreads()} (64) in all, and such extra threads
 * end after {@link #deliveryKeepAlive()} (10 s) without work; the
 * {@link #slowListenerTimeout()} (5 s) is only when the blocked watcher itself is cancelled.
 * Measured: 1,000 healthy push watchers beside a listener blocked for ever kept a
 * write-to-listener p99 within 1.5 times the run without it in 9 of 11 back-to-back pairs on a
 * loaded 2-core VM, at most 522 ms when the harness's own producer stalled 515 ms, where the
 * blocked listener used to cost them the 5 s slow-listener timeout (perf-reports/README.md).
 */
public final class RingWatchConfig
{
    /** The cap on delivery threads by default, unless more delivery threads are configured. */
    public static final int DEFAULT_MAX_DELIVERY_THREADS = 64;
    /** The engine name by default: the prefix of every thread name and the {@code engine} tag of every meter. */
    public static final String DEFAULT_NAME = "ringwatch";
    /** The least default {@link #crashRevisionBump()}: 2^20 revisions (twice the write ring where that is more). */
    public static final long DEFAULT_CRASH_REVISION_BUMP = 1L << 20;
    /** The longest engine name accepted, so that thread names stay readable. */
    public static final int MAX_NAME_LENGTH = 32;

    private final String name;
    private final boolean checkJvmFlags;

    private final int writeRingSize;
    private final int maxKeyBytes;
    private final int maxValueBytes;
    private final int windowMinCapacity;
    private final int windowMaxCapacity;
    private final Duration windowFreshness;
    private final int windowBytesPerEvent;
    private final int dispatcherThreads;
    private final int deliveryThreads;
    private final int deliveryBatchSize;
    private final int watcherQueueDepth;
    private final int pendingBudget;
    private final Duration progressNotifyInterval;
    private final Duration slowListenerTimeout;
    private final int maxDeliveryThreads;
    private final Duration listenerBlockedAfter;
    private final Duration deliveryKeepAlive;
    private final int indexInitialCapacity;
    private final long consistentReadBudgetBytes;
    private final long leaseMinTtlSeconds;
    private final Duration leaseCheckInterval;
    private final LeaseClock leaseClock;
    private final Supplier<WaitStrategy> writerWaitStrategy;
    private final Supplier<IdleStrategy> dispatcherIdleStrategy;
    private final Supplier<IdleStrategy> deliveryIdleStrategy;
    private final Persistence persistence;
    private final long snapshotEveryRevisions;
    private final long crashRevisionBump;

    private RingWatchConfig(final Builder b)
    {
        name = b.name;
        checkJvmFlags = b.checkJvmFlags;
        persistence = b.persistence;
        snapshotEveryRevisions = b.snapshotEveryRevisions;
        writeRingSize = b.writeRingSize;
        crashRevisionBump = b.crashRevisionBump != 0 ? b.crashRevisionBump :
            Math.max(DEFAULT_CRASH_REVISION_BUMP, 2L * b.writeRingSize);
        maxKeyBytes = b.maxKeyBytes;
        maxValueBytes = b.maxValueBytes;
        windowMinCapacity = b.windowMinCapacity;
        windowMaxCapacity = b.windowMaxCapacity;
        windowFreshness = b.windowFreshness;
        windowBytesPerEvent = b.windowBytesPerEvent;
        dispatcherThreads = b.dispatcherThreads;
        deliveryThreads = b.deliveryThreads;
        deliveryBatchSize = b.deliveryBatchSize;
        watcherQueueDepth = b.watcherQueueDepth;
        pendingBudget = b.pendingBudget;
        progressNotifyInterval = b.progressNotifyInterval;
        slowListenerTimeout = b.slowListenerTimeout;
        maxDeliveryThreads = b.maxDeliveryThreads == 0 ? Math.max(DEFAULT_MAX_DELIVERY_THREADS, b.deliveryThreads) : b.maxDeliveryThreads;
        listenerBlockedAfter = b.listenerBlockedAfter;
        deliveryKeepAlive = b.deliveryKeepAlive;
        indexInitialCapacity = b.indexInitialCapacity;
        consistentReadBudgetBytes = b.consistentReadBudgetBytes;
        leaseMinTtlSeconds = b.leaseMinTtlSeconds;
        leaseCheckInterval = b.leaseCheckInterval;
        leaseClock = b.leaseClock;
        writerWaitStrategy = b.writerWaitStrategy;
        dispatcherIdleStrategy = b.dispatcherIdleStrategy;
        deliveryIdleStrategy = b.deliveryIdleStrategy;
    }

    /**
     * @return the engine's name: every thread the engine starts is named after it
     * ({@code <name>-writer}, {@code <name>-dispatcher-0}, ...), and it tags the engine's meters
     * and log lines, so two engines in one JVM can be told apart.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return whether {@link io.ringwatch.engine.RingWatch#open(RingWatchConfig)} checks the JVM flags the engine
     * needs ({@link io.ringwatch.engine.JvmFlags}) and refuses to start without them (the default).
     */
    public boolean checkJvmFlags()
    {
        return checkJvmFlags;
    }

    /**
     * @return where a persistent engine keeps its revision log (for the Chronicle Queue log, a
     * {@code io.ringwatch.persistence.LogConfig}), or null for a purely in-memory engine.
     */
    public Persistence persistence()
    {
        return persistence;
    }

    /**
     * @return how many revisions the engine lets pass between index snapshots of a persistent
     * engine (which bound the log a restart replays); 0 for none, not even at close.
     */
    public long snapshotEveryRevisions()
    {
        return snapshotEveryRevisions;
    }

    /**
     * How far a persistent ASYNC engine's revision jumps when it opens a log its last writer did
     * not close cleanly (see {@link Builder#crashRevisionBump(long)}).
     *
     * @return the bump B: after an unclean close at last revision L the engine reopens at L + B,
     * compacted at L + B.
     */
    public long crashRevisionBump()
    {
        return crashRevisionBump;
    }

    /**
     * @return a builder holding the defaults.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @return the configuration with every default.
     */
    public static RingWatchConfig defaults()
    {
        return builder().build();
    }

    /** @return slots in the write ring (a power of two). */
    public int writeRingSize()
    {
        return writeRingSize;
    }

    /** @return the longest key accepted, in bytes. */
    public int maxKeyBytes()
    {
        return maxKeyBytes;
    }

    /** @return the longest value accepted, in bytes. */
    public int maxValueBytes()
    {
        return maxValueBytes;
    }

    /** @return the watch window's lower capacity bound, in events. */
    public int windowMinCapacity()
    {
        return windowMinCapacity;
    }

    /** @return the watch window's upper capacity bound, in events. */
    public int windowMaxCapacity()
    {
        return windowMaxCapacity;
    }

    /** @return how young the window's oldest event must be for the window to grow. */
    public Duration windowFreshness()
    {
        return windowFreshness;
    }

    /** @return the bytes of window data ring reserved per event of capacity. */
    public int windowBytesPerEvent()
    {
        return windowBytesPerEvent;
    }

    /** @return how many dispatcher threads share the watchers. */
    public int dispatcherThreads()
    {
        return dispatcherThreads;
    }

    /**
     * @return how many delivery threads call push listeners while none is blocked: any free one
     * takes the next push watcher with events, one batch at a time.
     */
    public int deliveryThreads()
    {
        return deliveryThreads;
    }

    /**
     * @return the cap on delivery threads, blocked ones included: while threads are blocked in
     * listeners the pool starts others, so that {@link #deliveryThreads()} keep delivering, up to
     * this many in all.
     */
    public int maxDeliveryThreads()
    {
        return maxDeliveryThreads;
    }

    /**
     * @return how long a listener may wait (sleep, park, wait for a lock) in one call before its
     * delivery thread counts as blocked and the pool starts another in its place (within 1.5
     * times this); a call that keeps running (computing, native I/O) counts after 25 times this.
     */
    public Duration listenerBlockedAfter()
    {
        return listenerBlockedAfter;
    }

    /**
     * @return how long a delivery thread beyond {@link #deliveryThreads()} (started while others
     * were blocked) stays without work before it ends.
     */
    public Duration deliveryKeepAlive()
    {
        return deliveryKeepAlive;
    }

    /** @return the most events handed to a listener in one call. */
    public int deliveryBatchSize()
    {
        return deliveryBatchSize;
    }

    /**
     * The depth of a watcher's queue of routed events: a watcher with this many undelivered
     * events leaves the routes and reads the watch window (then, in a persistent engine, the
     * revision log) by its own cursor, filtering by its range, until it has caught up and rejoins
     * with no gap and no duplicate. So a slow or never-drained watcher holds at most this many
     * queue entries (8 bytes each: 8 KiB at the default 1,024; none while it reads by cursor, and
     * no queue at all while it has no event) and is cancelled only when the window and the log no
     * longer hold its next event ({@code REVISION_UNAVAILABLE}, naming a revision it can resume
     * from), never for being slow. Measured: 10,000 never-polled prefix watchers at 5,000 writes/s
     * held 3 MB of heap in all (jmh/README.md, "Isolation runs"). A deeper queue lets a watcher
     * absorb longer bursts without reading by cursor (which costs its consumer a read of every
     * window event); a shallower one bounds memory more tightly.
     * Watches by secondary index, which cannot read by cursor yet, are cancelled
     * {@code OVERFLOWED} at this depth.
     *
     * @return the depth of each watcher's queue.
     */
    public int watcherQueueDepth()
    {
        return watcherQueueDepth;
    }

    /**
     * @return the depth of each watcher's queue.
     * @deprecated named {@link #watcherQueueDepth()} now: beyond it a watcher reads by cursor
     * instead of being cancelled.
     */
    @Deprecated
    public int maxPendingEvents()
    {
        return watcherQueueDepth;
    }

    /**
     * The engine's budget of queue entries pending in all watchers' queues together, shared
     * equally by the dispatcher threads (each owns its share, so counting costs no atomic per
     * event). A dispatcher whose share is spent sends the watcher it would queue for to read by
     * cursor, as if its queue were full. So queued events cost at most about 8 bytes times this
     * budget of heap (32 MiB at the default 2^22), however many watchers are slow.
     *
     * @return the most queue entries pending in the engine.
     */
    public int pendingBudget()
    {
        return pendingBudget;
    }

    /** @return the interval of progress notifications to watchers that asked for them. */
    public Duration progressNotifyInterval()
    {
        return progressNotifyInterval;
    }

    /**
     * @return how long a listener may stay in one call before its watcher is cancelled with
     * {@code SLOW_LISTENER}: a policy for the watcher's own sake, which frees no thread (the
     * pool has long since started another, see {@link #listenerBlockedAfter()}).
     */
    public Duration slowListenerTimeout()
    {
        return slowListenerTimeout;
    }

    /** @return the number of keys the index is sized for at start. */
    public int indexInitialCapacity()
    {
        return indexInitialCapacity;
    }

    /**
     * @return the most direct memory the writer holds for pinned consistent reads (pre-images of
     * the keys it changes while they run); a read that would need more fails with
     * {@link io.ringwatch.engine.errors.ReadBudgetExceededException}.
     */
    public long consistentReadBudgetBytes()
    {
        return consistentReadBudgetBytes;
    }

    /**
     * @return the least TTL a lease is granted, in seconds: a grant asking for less is raised to it
     * (etcd's {@code minLeaseTTL}).
     */
    public long leaseMinTtlSeconds()
    {
        return leaseMinTtlSeconds;
    }

    /**
     * @return how often the lease timer asks the writer to end the leases that are due; zero when
     * the engine runs no timer (leases then end only through
     * {@link io.ringwatch.engine.lease.Leases#expireDue()}).
     */
    public Duration leaseCheckInterval()
    {
        return leaseCheckInterval;
    }

    /** @return the clock lease commands are stamped with. */
    public LeaseClock leaseClock()
    {
        return leaseClock;
    }

    /** @return makes the writer thread's wait strategy. */
    public Supplier<WaitStrategy> writerWaitStrategy()
    {
        return writerWaitStrategy;
    }

    /** @return makes each dispatcher thread's idle strategy. */
    public Supplier<IdleStrategy> dispatcherIdleStrategy()
    {
        return dispatcherIdleStrategy;
    }

    /** @return makes each delivery thread's idle strategy. */
    public Supplier<IdleStrategy> deliveryIdleStrategy()
    {
        return deliveryIdleStrategy;
    }

    /**
     * Builds a {@link RingWatchConfig}. Each setter validates its argument and throws
     * {@link InvalidRequestException} for a bad one. Not thread-safe.
     */
    public static final class Builder
    {
        private String name = DEFAULT_NAME;
        private boolean checkJvmFlags = true;
        private int writeRingSize = 4096;
        private int maxKeyBytes = 4096;
        private int maxValueBytes = 1 << 20;
        private int windowMinCapacity = 1024;
        private int windowMaxCapacity = 128 * 1024;
        private Duration windowFreshness = Duration.ofSeconds(75);
        private int windowBytesPerEvent = 256;
        private int dispatcherThreads = 1;
        private int deliveryThreads = 1;
        private int deliveryBatchSize = 256;
        private int watcherQueueDepth = 1024;
        private int pendingBudget = 1 << 22;
        private Duration progressNotifyInterval = Duration.ofSeconds(10);
        private Duration slowListenerTimeout = Duration.ofSeconds(5);
        private int maxDeliveryThreads;
        private Duration listenerBlockedAfter = Duration.ofMillis(2);
        private Duration deliveryKeepAlive = Duration.ofSeconds(10);
        private int indexInitialCapacity = 1024;
        private long consistentReadBudgetBytes = 256L << 20;
        private long leaseMinTtlSeconds = 2;
        private Duration leaseCheckInterval = Duration.ofMillis(500);
        private LeaseClock leaseClock = LeaseClock.MONOTONIC;
        private Supplier<WaitStrategy> writerWaitStrategy = WakeableWaitStrategy::new;
        private Supplier<IdleStrategy> dispatcherIdleStrategy = WakeableIdleStrategy::forHandOffs;
        private Supplier<IdleStrategy> deliveryIdleStrategy = WakeableIdleStrategy::forHandOffs;
        private Persistence persistence;
        private long snapshotEveryRevisions = 1_000_000;
        /** 0: the default, worked out from the write ring's size at build. */
        private long crashRevisionBump;

        private Builder()
        {
        }

        /**
         * @param check false to start without checking the JVM flags ({@link io.ringwatch.engine.JvmFlags}); for a
         *              JVM whose access is granted in a way the check cannot see. True by default.
         * @return this builder.
         */
        public Builder checkJvmFlags(final boolean check)
        {
            this.checkJvmFlags = check;
            return this;
        }

        /**
         * @param name the engine's name (default {@value RingWatchConfig#DEFAULT_NAME}): 1 to
         *             {@value RingWatchConfig#MAX_NAME_LENGTH} characters among letters, digits,
         *             {@code .}, {@code _} and {@code -}, so that it is safe in thread names, meter
         *             tags and log lines.
         * @return this builder.
         * @throws InvalidRequestException for a null, empty, too long or otherwise invalid name.
         */
        public Builder name(final String name)
        {
            if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH || !name.matches("[A-Za-z0-9._-]+"))
            {
                throw new InvalidRequestException("engine name must be 1 to " + MAX_NAME_LENGTH +
                    " letters, digits, '.', '_' or '-': " + name);
            }
            this.name = name;
            return this;
        }

        /**
         * Makes the engine durable: every revision is appended to the journal {@code log} opens, a
         * restart recovers from it, and watchers that fall out of the watch window catch up from
         * it. The Chronicle Queue revision log is {@code io.ringwatch.persistence.LogConfig}, from
         * the {@code io.ringwatch:ringwatch-persistence} artifact (ASYNC durability acknowledges
         * after the append, SYNC after it is forced to disk). Null (the default) keeps the engine
         * in memory.
         *
         * @param log the journal's settings, or null.
         * @return this builder.
         */
        public Builder persistence(final Persistence log)
        {
            this.persistence = log;
            return this;
        }

        /**
         * Makes the engine durable in {@code directory} with the default settings of the
         * persistence implementation on the class path (for {@code io.ringwatch:ringwatch-persistence},
         * a Chronicle Queue revision log acknowledging writes once appended, ASYNC; its
         * {@code LogConfig} passed to {@link #persistence(Persistence)} chooses SYNC and the rest).
         * The implementation is found through {@link java.util.ServiceLoader}
         * ({@link PersistenceProvider}); the first one found is used. Allocates the lookup.
         *
         * @param directory the data directory; created when the engine opens, if absent.
         * @return this builder.
         * @throws InvalidRequestException          if {@code directory} is null.
         * @throws PersistenceUnavailableException if no persistence implementation is on the class
         *                                         path (the message names the artifact to add);
         *                                         this builder is left unchanged.
         */
        public Builder persistence(final Path directory)
        {
            if (directory == null)
            {
                throw new InvalidRequestException("directory must not be null");
            }
            final PersistenceProvider provider = ServiceLoader.load(PersistenceProvider.class).findFirst()
                .orElseThrow(() -> new PersistenceUnavailableException(directory.toString()));
            this.persistence = provider.at(directory);
            return this;
        }

        /**
         * @param revisions revisions between index snapshots of a persistent engine, 0 for none.
         * @return this builder.
         */
        public Builder snapshotEveryRevisions(final long revisions)
        {
            if (revisions < 0)
            {
                throw new InvalidRequestException("snapshot interval must not be negative: " + revisions);
            }
            this.snapshotEveryRevisions = revisions;
            return this;
        }

        /**
         * How far the revision jumps when a persistent engine in ASYNC mode opens a log whose last
         * writer did not close it cleanly (a kill -9, a crash, or a close after the log failed), as
         * etcd's {@code etcdutl snapshot restore --bump-revision B --mark-compacted}: an ASYNC
         * engine shows a revision to watchers and reads before its journal appends it, so the
         * crash may have taken revisions someone saw. Reopened with the log ending at L, the engine
         * starts at revision L + B, every revision before it compacted (a SKIP in the log), so a
         * client resuming from a revision it saw is refused as compacted and relists, instead of
         * silently missing the different changes that would otherwise take those numbers. A clean
         * close, a SYNC journal (nothing is shown before it is durable) and an in-memory engine
         * bump nothing.
         * <p>
         * A kill -9 takes at most the revisions the writer was ahead of the journal: at most the
         * write ring's size, so B must exceed it (by 2, for a client resuming after the newest
         * revision it saw). An OS crash or power loss in ASYNC mode can take more: everything the
         * OS had not written back (on Linux up to about 30 s of writes by default); set B above
         * that many writes where that matters, or use SYNC.
         * Default: 2^20 ({@link #DEFAULT_CRASH_REVISION_BUMP}) or twice the write ring's size,
         * whichever is larger.
         *
         * @param revisions the bump B; at least the write ring's size + 2 (checked at build).
         * @return this builder.
         * @throws InvalidRequestException if it is not positive.
         */
        public Builder crashRevisionBump(final long revisions)
        {
            if (revisions <= 0)
            {
                throw new InvalidRequestException("crash revision bump must be positive: " + revisions);
            }
            this.crashRevisionBump = revisions;
            return this;
        }

        /**
         * @param size slots in the write ring; a power of two, at least 2.
         * @return this builder.
         */
        public Builder writeRingSize(final int size)
        {
            if (size < 2 || Integer.bitCount(size) != 1)
            {
                throw new InvalidRequestException("write ring size must be a power of two >= 2: " + size);
            }
            writeRingSize = size;
            return this;
        }

        /**
         * @param bytes the longest key accepted, 1 to 65536.
         * @return this builder.
         */
        public Builder maxKeyBytes(final int bytes)
        {
            maxKeyBytes = inRange("max key bytes", bytes, 1, 65536);
            return this;
        }

        /**
         * @param bytes the longest value accepted, 0 to 64 MiB.
         * @return this builder.
         */
        public Builder maxValueBytes(final int bytes)
        {
            maxValueBytes = inRange("max value bytes", bytes, 0, 64 << 20);
            return this;
        }

        /**
         * @param min lower bound in events (power of two, at least 16).
         * @param max upper bound in events (power of two, at least {@code min}).
         * @return this builder.
         */
        public Builder windowCapacity(final int min, final int max)
        {
            if (min < 16 || Integer.bitCount(min) != 1 || max < min || Integer.bitCount(max) != 1)
            {
                throw new InvalidRequestException("window capacity bounds must be powers of two, 16 <= min <= max: " + min + ", " + max);
            }
            windowMinCapacity = min;
            windowMaxCapacity = max;
            return this;
        }

        /**
         * @param freshness how young the oldest event must be for the window to grow; positive.
         * @return this builder.
         */
        public Builder windowFreshness(final Duration freshness)
        {
            windowFreshness = positive("window freshness", freshness);
            return this;
        }

        /**
         * @param bytes data ring bytes reserved per event of window capacity, 16 to 65536.
         * @return this builder.
         */
        public Builder windowBytesPerEvent(final int bytes)
        {
            windowBytesPerEvent = inRange("window bytes per event", bytes, 16, 65536);
            return this;
        }

        /**
         * @param threads dispatcher threads, 1 to 256.
         * @return this builder.
         */
        public Builder dispatcherThreads(final int threads)
        {
            dispatcherThreads = inRange("dispatcher threads", threads, 1, 256);
            return this;
        }

        /**
         * @param threads delivery threads for push listeners, 1 to 256.
         * @return this builder.
         */
        public Builder deliveryThreads(final int threads)
        {
            deliveryThreads = inRange("delivery threads", threads, 1, 256);
            return this;
        }

        /**
         * @param threads the cap on delivery threads, blocked ones included, 1 to 4096 and at
         *                least {@link #deliveryThreads(int)}; by default the larger of
         *                {@value RingWatchConfig#DEFAULT_MAX_DELIVERY_THREADS} and the delivery
         *                threads.
         * @return this builder.
         */
        public Builder maxDeliveryThreads(final int threads)
        {
            maxDeliveryThreads = inRange("max delivery threads", threads, 1, 4096);
            return this;
        }

        /**
         * @param threshold how long a listener may wait in one call before the pool starts
         *                  another delivery thread in place of its own (25 times this if the
         *                  call keeps running); 100 µs to 1 minute, 2 ms by default.
         * @return this builder.
         */
        public Builder listenerBlockedAfter(final Duration threshold)
        {
            listenerBlockedAfter = between("listener blocked after", threshold, Duration.ofNanos(100_000), Duration.ofMinutes(1));
            return this;
        }

        /**
         * @param keepAlive how long a delivery thread beyond {@link #deliveryThreads(int)} stays
         *                  without work before it ends; positive, 10 s by default.
         * @return this builder.
         */
        public Builder deliveryKeepAlive(final Duration keepAlive)
        {
            deliveryKeepAlive = positive("delivery keep-alive", keepAlive);
            return this;
        }

        /**
         * @param events most events per listener call, 1 to 65536.
         * @return this builder.
         */
        public Builder deliveryBatchSize(final int events)
        {
            deliveryBatchSize = inRange("delivery batch size", events, 1, 65536);
            return this;
        }

        /**
         * @param events the depth of a watcher's queue of routed events (see
         *               {@link RingWatchConfig#watcherQueueDepth()}), 4 to 2^24; 1024 by default.
         * @return this builder.
         */
        public Builder watcherQueueDepth(final int events)
        {
            watcherQueueDepth = inRange("watcher queue depth", events, 4, 1 << 24);
            return this;
        }

        /**
         * @param events the depth of a watcher's queue, 4 to 2^24.
         * @return this builder.
         * @deprecated use {@link #watcherQueueDepth(int)}: beyond the depth a watcher reads by
         * cursor instead of being cancelled.
         */
        @Deprecated
        public Builder maxPendingEvents(final int events)
        {
            return watcherQueueDepth(events);
        }

        /**
         * @param entries the most queue entries pending in all watchers' queues together (see
         *                {@link RingWatchConfig#pendingBudget()}), 1024 to 2^30; 2^22 by default.
         * @return this builder.
         */
        public Builder pendingBudget(final int entries)
        {
            pendingBudget = inRange("pending budget", entries, 1024, 1 << 30);
            return this;
        }

        /**
         * @param interval progress notification interval; positive.
         * @return this builder.
         */
        public Builder progressNotifyInterval(final Duration interval)
        {
            progressNotifyInterval = positive("progress notify interval", interval);
            return this;
        }

        /**
         * @param timeout how long a listener may stay in one call; positive.
         * @return this builder.
         */
        public Builder slowListenerTimeout(final Duration timeout)
        {
            slowListenerTimeout = positive("slow listener timeout", timeout);
            return this;
        }

        /**
         * @param keys keys the index is sized for at start, 16 to 2^27 (the index's largest size hint).
         * @return this builder.
         */
        public Builder indexInitialCapacity(final int keys)
        {
            indexInitialCapacity = inRange("index initial capacity", keys, 16, 1 << 27);
            return this;
        }

        /**
         * The memory budget of consistent reads (range, count, byIndex, list-then-watch): while a
         * read runs, the writer keeps the pre-image of each key it changes, at most once per key
         * and read, in direct memory allocated in segments of 1 MiB or more (the largest key plus
         * value, rounded up to a power of two; at least one segment). A read that would need more
         * fails with {@link io.ringwatch.engine.errors.ReadBudgetExceededException}; the writer never waits. The default,
         * 256 MiB, holds a pre-image of each of 1,000,000 keys with 100-byte values.
         *
         * @param bytes the budget, 1 MiB to 1 TiB.
         * @return this builder.
         */
        public Builder consistentReadBudgetBytes(final long bytes)
        {
            if (bytes < (1L << 20) || bytes > (1L << 40))
            {
                throw new InvalidRequestException("consistent read budget must be 1 MiB to 1 TiB: " + bytes);
            }
            consistentReadBudgetBytes = bytes;
            return this;
        }

        /**
         * The least TTL a lease is granted; a grant asking for less is raised to it, as etcd raises
         * it to its {@code minLeaseTTL} (1.5 election timeouts, 2 s with etcd's defaults). The
         * default is 2 seconds.
         *
         * @param seconds the minimum, 1 to {@link io.ringwatch.engine.lease.Leases#MAX_TTL_SECONDS}.
         * @return this builder.
         */
        public Builder leaseMinTtlSeconds(final long seconds)
        {
            if (seconds < 1 || seconds > Leases.MAX_TTL_SECONDS)
            {
                throw new InvalidRequestException("lease minimum TTL must be 1 to " + Leases.MAX_TTL_SECONDS + " s: " + seconds);
            }
            leaseMinTtlSeconds = seconds;
            return this;
        }

        /**
         * How often the lease timer thread ({@code <name>-lease-timer}) hands the writer "end the
         * leases due now". A lease ends at most this late after its deadline. The default is 500 ms,
         * etcd's. Zero runs no timer: leases then end only when
         * {@link io.ringwatch.engine.lease.Leases#expireDue()} is called (tests with a manual clock).
         *
         * @param interval zero, or 1 ms to 1 hour.
         * @return this builder.
         */
        public Builder leaseCheckInterval(final Duration interval)
        {
            notNull("lease check interval", interval);
            leaseCheckInterval = interval.isZero() ? interval :
                between("lease check interval", interval, Duration.ofMillis(1), Duration.ofHours(1));
            return this;
        }

        /**
         * The clock lease commands are stamped with, read by the thread that hands a lease command
         * to the writer (the writer reads no clock). The default is monotonic
         * ({@link LeaseClock#MONOTONIC}). A test hook above all: a test passes a clock it moves by
         * hand, with {@code leaseCheckInterval(Duration.ZERO)}, and calls
         * {@link io.ringwatch.engine.lease.Leases#expireDue()}, so that it never sleeps for an expiry.
         *
         * @param clock the clock, never going back.
         * @return this builder.
         */
        public Builder leaseClock(final LeaseClock clock)
        {
            leaseClock = notNull("lease clock", clock);
            return this;
        }

        /**
         * @param factory makes the writer's Disruptor wait strategy: by default a
         *                {@link WakeableWaitStrategy}, which every publish wakes; or busy-spin,
         *                yielding, blocking... The writer is the ring's one consumer.
         * @return this builder.
         */
        public Builder writerWaitStrategy(final Supplier<WaitStrategy> factory)
        {
            writerWaitStrategy = notNull("writer wait strategy", factory);
            return this;
        }

        /**
         * @param factory makes each dispatcher's Agrona idle strategy: by default
         *                {@link WakeableIdleStrategy#forHandOffs()}, which the writer's publishes
         *                and watch commands wake; any other strategy is never woken, only polled.
         * @return this builder.
         */
        public Builder dispatcherIdleStrategy(final Supplier<IdleStrategy> factory)
        {
            dispatcherIdleStrategy = notNull("dispatcher idle strategy", factory);
            return this;
        }

        /**
         * @param factory makes each delivery thread's Agrona idle strategy: by default
         *                {@link WakeableIdleStrategy#forHandOffs()}, which a dispatcher wakes once per batch
         *                that scheduled watchers on the thread; any other strategy is never woken,
         *                only polled.
         * @return this builder.
         */
        public Builder deliveryIdleStrategy(final Supplier<IdleStrategy> factory)
        {
            deliveryIdleStrategy = notNull("delivery idle strategy", factory);
            return this;
        }

        /**
         * @return the configuration.
         * @throws InvalidRequestException if the cap on delivery threads is below the delivery
         *                                 threads, or the crash revision bump is not above the
         *                                 write ring's size + 1.
         */
        public RingWatchConfig build()
        {
            if (crashRevisionBump != 0 && crashRevisionBump < writeRingSize + 2L)
            {
                throw new InvalidRequestException("crash revision bump (" + crashRevisionBump +
                    ") must be at least the write ring's size + 2 (" + (writeRingSize + 2L) + ")");
            }
            if (maxDeliveryThreads != 0 && maxDeliveryThreads < deliveryThreads)
            {
                throw new InvalidRequestException("max delivery threads (" + maxDeliveryThreads +
                    ") must be at least the delivery threads (" + deliveryThreads + ")");
            }
            return new RingWatchConfig(this);
        }

        private static int inRange(final String what, final int value, final int min, final int max)
        {
            if (value < min || value > max)
            {
                throw new InvalidRequestException(what + " must be in [" + min + ", " + max + "]: " + value);
            }
            return value;
        }

        private static Duration between(final String what, final Duration d, final Duration min, final Duration max)
        {
            notNull(what, d);
            if (d.compareTo(min) < 0 || d.compareTo(max) > 0)
            {
                throw new InvalidRequestException(what + " must be in [" + min + ", " + max + "]: " + d);
            }
            return d;
        }

        private static Duration positive(final String what, final Duration d)
        {
            if (d == null || d.isNegative() || d.isZero())
            {
                throw new InvalidRequestException(what + " must be positive: " + d);
            }
            return d;
        }

        private static <T> T notNull(final String what, final T value)
        {
            if (value == null)
            {
                throw new InvalidRequestException(what + " must not be null");
            }
            return value;
        }
    }
}
