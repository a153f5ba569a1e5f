package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.idle.Doorbell;
import io.ringwatch.engine.idle.WakeableIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The threads that call push listeners: one shared ready queue of {@link DeliveryTask}s, from
 * which any free delivery thread takes the next ready task and runs one turn of it (one batch),
 * then puts it back at the tail if it has more. So a listener that blocks holds one thread and
 * nothing else: the other threads keep taking the other tasks.
 *
 * <p><b>Turns.</b> A task is on at most one thread at a time, and its turns run in order. Its
 * turn state says where it is: {@link #IDLE} (nowhere), {@link #QUEUED} (in the ready queue, or
 * about to be), {@link #RUNNING} (a thread is in its turn), {@link #RUNNING_SIGNALLED} (and a
 * schedule came meanwhile). {@link #schedule} moves IDLE to QUEUED and enqueues, or RUNNING to
 * RUNNING_SIGNALLED and leaves the rest to the running thread, which after the turn puts the
 * task back in the queue if it has work or was signalled, else moves it to IDLE. Only the
 * thread that moved a task to QUEUED or RUNNING may move it on, so a task is never queued twice
 * and never left IDLE with work. Every move is a compare-and-set, a schedule that finds the task
 * QUEUED included (QUEUED to QUEUED): the thread's next move reads that write, which orders the
 * scheduler's work before the thread's next look for it, where a plain read could miss it (a
 * store then a load may pass each other). The ready queue is bounded: a schedule that finds it full
 * returns false for its caller to retry (the dispatcher does), and a thread that cannot put its
 * task back keeps running it instead.
 *
 * <p><b>Compensation.</b> No thread can be pulled out of user code, so the pool works around a
 * blocked one, as ForkJoinPool's managed blocking does: the housekeeping thread
 * ({@link #maintain}) counts the threads that have been inside one turn longer than the
 * blocked threshold, waiting (parked, sleeping, on a monitor), or {@value #RUNNABLE_BLOCKED_FACTOR}
 * times longer while still runnable (computing, native I/O: on a loaded machine a thread
 * descheduled in a short call looks the same for a while), and starts new threads until {@code coreThreads} are not blocked, up to
 * {@code maxThreads}. A thread beyond the core count that then finds no work for the keep-alive
 * time retires. Past the cap, every thread being blocked, the ready tasks wait for a listener to
 * return. Cancelling a listener that stays in one call longer than the slow-listener timeout
 * is a separate policy ({@link DeliveryTask#overstayed}); it frees no thread.
 *
 * <p><b>Wake-up.</b> Threads idle with their own idle strategy and, when it is a
 * {@link WakeableIdleStrategy}, park on its {@link Doorbell}. Whoever enqueues calls
 * {@link #wake()} afterwards, once for any number of schedules: one full fence, then it rings
 * as many armed doorbells as the queue holds tasks. The fence pairs with the one a thread makes
 * when it arms its doorbell before its last look at the queue, so either that look finds the
 * task or the waker finds the thread armed (as in {@code DoorbellStress}).
 *
 * <p>Allocation: none per schedule or turn; a new thread (its batch and idle strategy) only
 * when the pool compensates for a blocked one.
 */
final class DeliveryPool
{
    /** Turn state: not queued, not running. */
    static final int IDLE = 0;
    /** Turn state: in the ready queue, or held by the thread that will enqueue it or run it. */
    static final int QUEUED = 1;
    /** Turn state: a thread is in the task's turn. */
    static final int RUNNING = 2;
    /** Turn state: a thread is in the task's turn and a schedule came since it began. */
    static final int RUNNING_SIGNALLED = 3;

    /** A thread still RUNNABLE (computing, or in native I/O) counts as blocked only after this many thresholds. */
    static final int RUNNABLE_BLOCKED_FACTOR = 25;

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryPool.class);
    private static final VarHandle THREADS;

    static
    {
        try
        {
            THREADS = MethodHandles.lookup().findVarHandle(DeliveryPool.class, "threads", int.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String namePrefix;
    private final int batchSize;
    private final Supplier<IdleStrategy> idleStrategies;
    private final int coreThreads;
    private final int maxThreads;
    private final long blockedAfterNanos;
    private final long runnableBlockedAfterNanos;
    private final long keepAliveNanos;
    private final Doorbell housekeeping = new Doorbell();
    private final long slowListenerNanos;
    private final ManyToManyConcurrentArrayQueue<DeliveryTask> ready;
    private final AtomicReferenceArray<DeliveryWorker> workers;
    /** Threads started and not yet retired or ended. */
    private volatile int threads;
    /** Written by {@link #maintain}: threads seen blocked at its last look. */
    private volatile int blocked;
    /** One past the highest slot ever used: the waker's scan stops there. */
    private volatile int slotsUsed;
    private volatile boolean closing;
    /**
     * Written by {@link #maintain} only: threads started in place of blocked ones, ever. Counted
     * before each such thread starts, so whoever sees its work (a listener it ran) sees it counted.
     */
    private volatile long replaced;
    /** Housekeeping thread only: the cap was reported since threads were last all free. */
    private boolean capReported;
    /** Numbers thread names; starts are serialised by {@code this}. */
    private int nextThreadNumber;

    /**
     * @param namePrefix        thread names are this, a dash and a number from 0.
     * @param batchSize         the most events per listener call.
     * @param idleStrategies    makes each thread's idle strategy.
     * @param coreThreads       threads kept running (unless blocked) even without work; at least 1.
     * @param maxThreads        the cap on threads, blocked ones included; at least {@code coreThreads}.
     * @param blockedAfterNanos a thread waiting inside one turn this long counts as blocked; a
     *                          runnable one {@value #RUNNABLE_BLOCKED_FACTOR} times this long.
     * @param keepAliveNanos    a thread beyond the core count retires after this long without work.
     * @param slowListenerNanos a turn this long is reported to its task as overstayed.
     * @param queueCapacity     ready queue capacity (rounded up to a power of two).
     */
    DeliveryPool(
        final String namePrefix,
        final int batchSize,
        final Supplier<IdleStrategy> idleStrategies,
        final int coreThreads,
        final int maxThreads,
        final long blockedAfterNanos,
        final long keepAliveNanos,
        final long slowListenerNanos,
        final int queueCapacity)
    {
        if (coreThreads < 1 || maxThreads < coreThreads)
        {
            throw new IllegalArgumentException("need 1 <= core threads <= max threads: " + coreThreads + ", " + maxThreads);
        }
        this.namePrefix = namePrefix;
        this.batchSize = batchSize;
        this.idleStrategies = idleStrategies;
        this.coreThreads = coreThreads;
        this.maxThreads = maxThreads;
        this.blockedAfterNanos = blockedAfterNanos;
        this.runnableBlockedAfterNanos = blockedAfterNanos * RUNNABLE_BLOCKED_FACTOR;
        this.keepAliveNanos = keepAliveNanos;
        this.slowListenerNanos = slowListenerNanos;
        this.ready = new ManyToManyConcurrentArrayQueue<>(queueCapacity);
        this.workers = new AtomicReferenceArray<>(maxThreads);
    }

    /**
     * Starts the core threads. Call once.
     */
    void start()
    {
        for (int i = 0; i < coreThreads; i++)
        {
            startThread(false);
        }
    }

    /**
     * Asks for a turn of {@code task}: enqueues it unless it is already queued or running (a
     * running task is marked so that its thread runs it again). Call {@link #wake()} after the
     * last schedule of a batch. Any thread; no allocation.
     *
     * @param task a task that has work.
     * @return false when the ready queue is full and the caller must retry later.
     */
    boolean schedule(final DeliveryTask task)
    {
        while (true)
        {
            final int state = task.turnState();
            if (state == IDLE)
            {
                if (task.compareAndSetTurnState(IDLE, QUEUED))
                {
                    if (ready.offer(task))
                    {
                        return true;
                    }
                    // Still QUEUED, so no one else moved it on: give it back.
                    move(task, IDLE);
                    return false;
                }
            }
            else if (task.compareAndSetTurnState(state, state == RUNNING ? RUNNING_SIGNALLED : state))
            {
                // A write even when the state stays: the thread that moves the task on next reads
                // it, which orders the caller's work before that thread's next look for work.
                return true;
            }
        }
    }

    /**
     * Wakes as many parked threads as the ready queue holds tasks. Call after enqueueing: one
     * full fence for all the schedules before it. Any thread; no allocation; an unpark per
     * thread woken.
     */
    void wake()
    {
        VarHandle.fullFence();
        int wanted = ready.size();
        for (int i = 0, used = slotsUsed; i < used && wanted > 0; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker != null && worker.doorbell().ringAfterFence())
            {
                wanted--;
            }
        }
    }

    /**
     * The housekeeper's doorbell, which it arms and then checks {@link #isQuiet()} before it parks
     * for long; every turn rings it once it has begun, so a listener that blocks is watched. Any
     * thread.
     *
     * @return the doorbell.
     */
    Doorbell housekeeping()
    {
        return housekeeping;
    }

    /**
     * @return true when no thread is in a turn: nothing for {@link #maintain(long)} to watch until
     * a turn begins (and rings {@link #housekeeping()}). Any thread; no allocation.
     */
    boolean isQuiet()
    {
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker != null && worker.inTurn() != null)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Housekeeping, every millisecond or so: reports turns that overstayed the slow-listener
     * timeout, and starts threads to make up for blocked ones. Housekeeping thread only.
     *
     * @param nowNanos {@link System#nanoTime()} now.
     */
    void maintain(final long nowNanos)
    {
        if (closing)
        {
            return;
        }
        int blockedNow = 0;
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker != null)
            {
                final DeliveryTask task = worker.inTurn();
                if (task != null)
                {
                    final long started = worker.turnStartNanos();
                    final long inside = nowNanos - started;
                    if (inside > blockedAfterNanos && (inside > runnableBlockedAfterNanos || isWaiting(worker.thread())))
                    {
                        blockedNow++;
                    }
                    if (inside > slowListenerNanos && worker.reportedTurnStart != started && worker.inTurn() == task)
                    {
                        worker.reportedTurnStart = started;
                        task.overstayed(slowListenerNanos);
                    }
                }
            }
        }
        final boolean fewerBlocked = blockedNow < blocked;
        blocked = blockedNow;
        if (fewerBlocked)
        {
            // Threads came back from listeners: an idle one may now be surplus and must count its
            // keep-alive, which a deeply parked one learns only when woken.
            ringAll();
        }
        int started = 0;
        while (threads - blockedNow < coreThreads && threads < maxThreads && startThread(true))
        {
            // Each start makes up for one blocked thread.
            started++;
        }
        if (started > 0)
        {
            LOG.info("{}: {} delivery threads blocked in listeners; started {} in their place ({} threads, at most {})",
                namePrefix, blockedNow, started, threads, maxThreads);
        }
        else if (blockedNow > 0 && threads >= maxThreads && !capReported)
        {
            capReported = true;
            LOG.warn("{}: all {} delivery threads (the cap) are blocked in listeners; ready watchers wait",
                namePrefix, maxThreads);
        }
        if (blockedNow == 0)
        {
            capReported = false;
        }
        if (blockedNow > 0 && !ready.isEmpty())
        {
            // A task re-queued by a thread that then blocked rang no one new: look again.
            wake();
        }
    }

    /**
     * Lets every thread finish what is queued and waits for them to end, at most
     * {@code timeoutNanos} in all. The calling thread, if it is one of the pool's (a listener
     * closing the engine), is not waited for: it carries on with the queue when its listener
     * returns. Any thread; idempotent.
     *
     * @param timeoutNanos the longest to wait.
     * @return what the close gave up on once the time was up, for the caller to log: each thread
     * still in a turn and its task ({@link DeliveryTask#describe}), and how many tasks were left in
     * the ready queue with no thread to run them; null when there is none (or the wait was
     * interrupted). Allocates the description only then.
     */
    String close(final long timeoutNanos)
    {
        closing = true;
        ringAll();
        final Thread self = Thread.currentThread();
        final long deadline = System.nanoTime() + timeoutNanos;
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            final long left = deadline - System.nanoTime();
            if (worker != null && worker.thread() != self && left > 0)
            {
                try
                {
                    worker.thread().join(Math.max(1, left / 1_000_000));
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
        return abandoned(self);
    }

    /** After close's wait: the threads still in a turn, and the ready tasks left with no thread. */
    private String abandoned(final Thread self)
    {
        final StringBuilder inTurns = new StringBuilder();
        int stuck = 0;
        boolean selfInPool = false;
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker == null)
            {
                continue;
            }
            if (worker.thread() == self)
            {
                selfInPool = true;
                continue;
            }
            final DeliveryTask task = worker.inTurn();
            if (task != null && worker.thread().isAlive())
            {
                inTurns.append(stuck++ == 0 ? "" : ", ").append(worker.thread().getName()).append(" in ");
                task.describe(inTurns);
            }
        }
        // A pool thread that closes runs the queue itself once its listener returns.
        final int left = selfInPool ? 0 : ready.size();
        if (stuck == 0 && left == 0)
        {
            return null;
        }
        return stuck + " delivery thread(s) still in a listener" + (stuck == 0 ? "" : ": " + inTurns) +
            "; " + left + " ready watcher(s) left with no thread to run them";
    }

    /**
     * @return the threads' name prefix. Any thread.
     */
    String name()
    {
        return namePrefix;
    }

    /**
     * @return threads started in place of threads blocked in listeners, since the pool started.
     * Any thread; a plain read of a field the housekeeping thread alone writes.
     */
    long replacedCount()
    {
        return replaced;
    }

    /**
     * @return threads started and not yet retired or ended. Any thread.
     */
    int threadCount()
    {
        return threads;
    }

    /**
     * @return whether the calling thread is one of this pool's.
     */
    boolean isPoolThread()
    {
        final Thread self = Thread.currentThread();
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker != null && worker.thread() == self)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes the next ready task. Pool threads.
     */
    DeliveryTask poll()
    {
        return ready.poll();
    }

    /**
     * Runs turns of a task just taken from the queue until it is put back or goes idle. Pool
     * threads.
     */
    void run(final DeliveryWorker worker, final DeliveryTask task, final EventBatchView batch)
    {
        move(task, RUNNING);
        do
        {
            worker.enterTurn(task);
            // A volatile store (the turn) then a volatile load (the armed housekeeper), against
            // the housekeeper's arm then read of the turn: one of the two sees the other. A load
            // per turn while the housekeeper is awake, an unpark only when it idles deeply.
            housekeeping.ringAfterFence();
            try
            {
                task.runTurn(batch, batchSize);
            }
            finally
            {
                worker.leaveTurn();
            }
        }
        while (!release(task));
    }

    /**
     * @return true when the pool closes and the queue is empty: the thread may end.
     */
    boolean isDone()
    {
        return closing && ready.isEmpty();
    }

    /**
     * Retires the calling thread if it is beyond the core count (blocked threads not counted)
     * and has had no work for the keep-alive time. Pool threads.
     *
     * @return true if the thread must end now.
     */
    boolean tryRetire(final long idleNanos)
    {
        if (idleNanos < keepAliveNanos)
        {
            return false;
        }
        final int count = threads;
        return count - blocked > coreThreads && THREADS.compareAndSet(this, count, count - 1);
    }

    /** Wakes every parked thread after the caller's stores: one fence, then each doorbell. */
    private void ringAll()
    {
        VarHandle.fullFence();
        for (int i = 0, used = slotsUsed; i < used; i++)
        {
            final DeliveryWorker worker = workers.get(i);
            if (worker != null)
            {
                worker.doorbell().ringAfterFence();
            }
        }
    }

    /**
     * @return how long a thread beyond the core count lives without work, in nanoseconds.
     */
    long keepAliveNanos()
    {
        return keepAliveNanos;
    }

    /**
     * @return whether a thread without work should watch the clock for its keep-alive.
     */
    boolean hasSurplus()
    {
        return threads - blocked > coreThreads;
    }

    /**
     * A thread ends: frees its slot, and its count unless it retired (already counted down).
     */
    void ended(final DeliveryWorker worker, final boolean retired)
    {
        if (!retired)
        {
            THREADS.getAndAdd(this, -1);
        }
        workers.compareAndSet(worker.slot(), worker, null);
    }

    /**
     * @return false when the task must run again on this thread (the ready queue is full).
     */
    private boolean release(final DeliveryTask task)
    {
        while (!task.hasWork())
        {
            if (task.compareAndSetTurnState(RUNNING, IDLE))
            {
                return true;
            }
            // Signalled during the turn: take the signal, then look for its work again.
            task.compareAndSetTurnState(RUNNING_SIGNALLED, RUNNING);
        }
        move(task, QUEUED);
        if (ready.offer(task))
        {
            wake();
            return true;
        }
        move(task, RUNNING);
        return false;
    }

    /** Whether a thread in a listener's turn waits rather than runs (then it is blocked for sure). */
    private static boolean isWaiting(final Thread thread)
    {
        // Parked, sleeping, waiting on a monitor or a lock: blocked for sure. RUNNABLE may be a
        // thread that the machine descheduled in a short call, so it gets longer.
        return thread.getState() != Thread.State.RUNNABLE;
    }

    /**
     * Moves a task the caller holds (QUEUED or RUNNING) to {@code state}. A read-modify-write,
     * never a plain store: it reads what a concurrent {@link #schedule} wrote, so that
     * schedule's work is visible to the caller's next look.
     */
    private static void move(final DeliveryTask task, final int state)
    {
        int current;
        do
        {
            current = task.turnState();
        }
        while (!task.compareAndSetTurnState(current, state));
    }

    /**
     * Starts a thread in a free slot, if there is one and the pool is not closing.
     *
     * @param inPlaceOfBlocked whether it makes up for a thread blocked in a listener: then it is
     *                         counted in {@link #replacedCount()} before it starts (the housekeeping
     *                         thread's call only, the field's one writer).
     * @return whether a thread was started.
     */
    private synchronized boolean startThread(final boolean inPlaceOfBlocked)
    {
        int slot = -1;
        for (int i = 0; i < maxThreads; i++)
        {
            if (workers.get(i) == null)
            {
                slot = i;
                break;
            }
        }
        if (slot < 0 || closing)
        {
            return false;
        }
        final IdleStrategy idle = idleStrategies.get();
        final Doorbell doorbell = idle instanceof WakeableIdleStrategy ? ((WakeableIdleStrategy)idle).doorbell() : new Doorbell();
        final DeliveryWorker worker = new DeliveryWorker(this, slot, namePrefix + "-" + nextThreadNumber++, idle, doorbell,
            new EventBatchView(batchSize));
        if (idle instanceof WakeableIdleStrategy)
        {
            ((WakeableIdleStrategy)idle).dueWork(worker);
        }
        workers.set(slot, worker);
        if (slot >= slotsUsed)
        {
            slotsUsed = slot + 1;
        }
        THREADS.getAndAdd(this, 1);
        if (inPlaceOfBlocked)
        {
            // Before the start: the new thread may run a ready listener at once, and a caller who
            // sees that delivery must also see the replacement counted.
            replaced++;
        }
        worker.thread().start();
        return true;
    }
}
