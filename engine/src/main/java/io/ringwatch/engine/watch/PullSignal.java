package io.ringwatch.engine.watch;

/**
 * What the engine calls when it hands one {@link PullWatcher} something to poll, for an owner that
 * polls many watchers and wants to know which one has work ({@link PullWatcher#signalWith}), not
 * only that one has (a doorbell): it can then poll just that watcher instead of all of them.
 * <p>
 * Threading: called on an engine dispatcher thread, after a full fence that follows the hand-over,
 * so a poll that starts after a load that comes after this call sees what was handed over. It must
 * be short and must not block: the dispatcher serves every other watcher of its shard meanwhile, so a
 * slow signal delays them all. One that throws is logged and never called again (the watcher is
 * left as it is, still pollable). An implementation that allocates allocates on the dispatcher's
 * hot path.
 */
@FunctionalInterface
public interface PullSignal
{
    /**
     * The watcher has something to poll: events, a progress notification, a catch-up or its end.
     * Dispatcher thread; may come again before the owner polls.
     */
    void signalled();
}
