/**
 * The watch side of an engine: dispatcher shards that route each revision's events to the watchers
 * whose ranges match, per-watcher queues and cursors, the delivery pool that calls push listeners,
 * and catching up from history for a watcher the window no longer covers.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.dispatch;
