package io.ringwatch.engine.internal.dispatch;

/**
 * Something a {@link DeliveryPool} runs in turns: a push watcher, whose turn drains at most one
 * batch into its listener. The pool owns the task's turn state ({@link DeliveryPool#IDLE},
 * {@link DeliveryPool#QUEUED}, {@link DeliveryPool#RUNNING}, {@link DeliveryPool#RUNNING_SIGNALLED})
 * and moves it only by compare-and-set (see {@link DeliveryPool} for why never by a plain write); the task stores it in one int of its own, so
 * being schedulable costs a watcher four bytes and no object.
 * <p>
 * Threads: {@link #runTurn} and {@link #hasWork()} are called by one pool thread at a time (the
 * one that moved the task to RUNNING); the state accessors by any thread;
 * {@link #overstayed(long)} by the pool's housekeeping thread.
 */
interface DeliveryTask
{
    /**
     * @return the turn state, a volatile read.
     */
    int turnState();

    /**
     * @param expected the state the caller believes the task is in.
     * @param updated  the state to move it to.
     * @return true if the state was {@code expected} and is now {@code updated}.
     */
    boolean compareAndSetTurnState(int expected, int updated);

    /**
     * Runs one turn: hands at most one batch to user code. Must not throw.
     *
     * @param batch     the calling thread's batch, reused from turn to turn.
     * @param maxEvents the most events to hand over in this turn.
     */
    void runTurn(EventBatchView batch, int maxEvents);

    /**
     * @return true when another turn would do something.
     */
    boolean hasWork();

    /**
     * The slow-listener policy: the current turn has lasted longer than the engine's slow
     * listener timeout. Called at most once per turn, by the housekeeping thread, while the
     * turn's thread is still inside it.
     *
     * @param timeoutNanos the timeout it overstayed.
     */
    void overstayed(long timeoutNanos);

    /**
     * Names the task, and what it still holds undelivered, for the warning a close that gave up
     * on its thread logs. Any thread, racy; allocates what it appends.
     *
     * @param into receives the description.
     */
    default void describe(final StringBuilder into)
    {
        into.append(this);
    }
}
