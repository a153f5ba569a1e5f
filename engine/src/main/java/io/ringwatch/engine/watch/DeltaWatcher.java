package io.ringwatch.engine.watch;

import java.time.Duration;

/**
 * A pull watcher that coalesces (Juju's multiwatcher): {@link #next} returns every key changed
 * since the previous call once, in its latest state, instead of every event. A client that
 * calls rarely costs memory per distinct key changed, not per event, and is never lapped and
 * never overflows: when the engine no longer holds the events it missed, the watcher lists
 * the range again and hands over a {@link DeltaBatch#isReset() reset} batch instead of ending.
 *
 * <p>Threads: one thread at a time calls {@link #next}; {@link #cancel()} and
 * {@link #requestProgress()} may come from any thread. Allocates a copy of each changed key and
 * of its latest value, and the batch it returns.
 */
public interface DeltaWatcher extends Watcher
{
    /**
     * Blocks until a delta is pending, the complete revision advanced past the previous batch's, the watch ended, or the
     * timeout passes, then hands over everything pending. Also asks the engine for progress, so that even an empty batch carries
     * a fresh {@link DeltaBatch#completeRevision()} once the engine answers.
     *
     * @param timeout the longest to wait.
     * @return the pending deltas; empty when the timeout passed first.
     * @throws InterruptedException if the calling thread is interrupted while waiting.
     * @throws io.ringwatch.engine.errors.InvalidRequestException if the timeout is null or negative.
     */
    DeltaBatch next(Duration timeout) throws InterruptedException;
}
