/**
 * A watcher for clients that read rarely: {@link io.ringwatch.engine.coalesce.CoalescingWatcher}
 * folds the events of a push watch into the latest state per key, so a slow client costs a map
 * entry per changed key instead of a queue of events.
 */
package io.ringwatch.engine.coalesce;
