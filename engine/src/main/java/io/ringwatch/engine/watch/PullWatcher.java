package io.ringwatch.engine.watch;

import io.ringwatch.engine.idle.Doorbell;

import java.time.Duration;

/**
 * A watcher whose owner pulls events from its own sequence, like a Disruptor EventPoller: the
 * engine never calls into the owner: it only unparks a thread blocked in {@link #next}, rings a
 * {@link Doorbell} and marks a {@link ReadyQueue.Entry} the owner gave it. One thread at a time may
 * poll; {@link #cancel()}, {@link #requestProgress()}, {@link #wakeWith} and {@link #readyIn} may
 * come from any thread.
 */
public interface PullWatcher extends Watcher
{
    /**
     * Hands the pending events to {@code handler} on the calling thread without blocking: one
     * {@code onEvents} call per run of events, {@code onProgress} for progress notifications and
     * {@code onCancelled} once when the watch has ended. A watcher catching up reads a bounded
     * number of changes per call; a call that stops there with more to read marks its ready entry
     * and rings its doorbell itself, as a hand-over would, since no other thread will. Allocates
     * nothing in steady state.
     *
     * @param handler   receives what is pending.
     * @param maxEvents the most events to hand over in this call.
     * @return the number of events handed over.
     */
    int poll(WatchListener handler, int maxEvents);

    /**
     * The revision up to which the watch has been handed every event it wants (handed to its
     * poller), {@code startRevision() - 1} before anything: with the engine's current revision it
     * says how far behind the owner is, as {@code RingWatch.watchers()} does for every watcher at
     * once (a server uses it to hold writers back for clients that read slowly). Any thread; read
     * racily from fields the engine's threads write, so a value the watch really had at about the
     * time of the call. O(1), allocates nothing.
     *
     * @return the revision the watch is complete up to.
     */
    long position();

    /**
     * Whether the watcher is in step: it takes its events from its dispatcher's routes as they are
     * written, not from the history by its own cursor after falling behind (etcd's synced and
     * unsynced watchers). A watch started in the past within the window is in step from the start
     * (its dispatcher replays the window to it). Exact on the polling thread, between or inside {@link #poll}
     * calls (a listener asking in {@code onEvents} learns where those events came from); a racy
     * read from any other. O(1), allocates nothing.
     *
     * @return whether the watcher is in step.
     */
    default boolean inStep()
    {
        return true;
    }

    /**
     * Blocks until something is pending or the timeout passes, then returns everything pending
     * (Juju's multiwatcher Next()): copies of the events, each progress notification marked where
     * it fell among them (as {@link #poll} would have handed them over), and the cancellation once
     * the watch has ended. Allocates the response, a copy per event and a mark per progress
     * notification.
     *
     * @param timeout the longest to wait.
     * @return what was pending; empty when the timeout passed first.
     * @throws InterruptedException if the calling thread is interrupted while waiting.
     */
    WatchResponse next(Duration timeout) throws InterruptedException;

    /**
     * Has the engine ring {@code doorbell} whenever it hands this watcher something to poll
     * (events, a progress notification, a catch-up, its end), after making it visible to
     * {@link #poll}: a thread that polls many watchers can park on one doorbell until one of them
     * has work, instead of polling them on a timer. Rung on the engine's dispatcher thread, once
     * per dispatch cycle that touched the watcher; a ring costs the dispatcher a fence and a read
     * while the owner is awake, an unpark while it parks. The owner arms the doorbell, polls every
     * watcher once more, then parks (the {@link Doorbell} protocol), so no hand-over is missed.
     *
     * @param doorbell the doorbell to ring, or null to stop ringing one.
     */
    void wakeWith(Doorbell doorbell);

    /**
     * Has the engine mark {@code entry} whenever it hands this watcher something to poll, as
     * {@link #wakeWith} rings a doorbell (same moments, same fence before it, after the doorbell's
     * ring): an owner of many watchers learns which of them has work and polls only those, on its
     * own thread ({@link ReadyQueue}). It is also marked when a revision it was handed part of
     * becomes whole ({@link #position()} reaches it) in a later dispatch cycle, even if the rest of
     * that revision matches nothing of the watch: an owner that sends only whole revisions learns
     * it there. The dispatcher runs no code of the owner's, so an owner that
     * is slow or never drains its queue delays no other watcher. Setting an entry marks it once,
     * for what was handed over before (a spare mark when nothing was). The owner unmarks the entry
     * before it polls (the queue's protocol), so a hand-over the poll misses marks it again. Any
     * thread; allocates nothing.
     *
     * @param entry the entry to mark, or null to stop marking one.
     * @throws UnsupportedOperationException if this watcher cannot mark an entry (the default).
     */
    default void readyIn(final ReadyQueue.Entry<?> entry)
    {
        throw new UnsupportedOperationException("this pull watcher marks no ready entry");
    }
}
