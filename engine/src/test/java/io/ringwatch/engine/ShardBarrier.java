package io.ringwatch.engine;

import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

/**
 * Waits, without timing, until an engine's only dispatcher shard has handled every command queued
 * before the call (its registrations and removals, and the hand-overs they make): it registers a
 * watcher of a key no test watches, writes that key and waits for the event. The shard takes
 * commands in order, and routes the write only after registering the watcher it is for.
 */
final class ShardBarrier
{
    private static final String KEY = "~shard-barrier";

    private ShardBarrier()
    {
    }

    /** Returns once the one shard of {@code engine} has handled every command queued before this call. */
    static void pass(final RingWatch engine)
    {
        final RecordingListener listener = new RecordingListener();
        final Watcher barrier = engine.watch(WatchRequest.of(KeyRange.key(KEY)), listener);
        engine.put(KEY, "b");
        listener.awaitEvents(1);
        barrier.cancel();
    }
}
