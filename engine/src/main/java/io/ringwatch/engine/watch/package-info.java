/**
 * Watching changes: a {@link io.ringwatch.engine.watch.WatchRequest} names a key range and a start
 * revision; an engine answers with a push {@link io.ringwatch.engine.watch.Watcher} (a
 * {@link io.ringwatch.engine.watch.WatchListener} called on a delivery thread), a
 * {@link io.ringwatch.engine.watch.PullWatcher}, a {@link io.ringwatch.engine.watch.DeltaWatcher} or a
 * {@link io.ringwatch.engine.watch.ListWatch}, and events, batches and cancellations describe what
 * happened. Each type states its threads and what it allocates.
 */
package io.ringwatch.engine.watch;
