/**
 * The engine's past: the journal seam the writer records every revision through, the history that
 * watchers catch up from (window, then log), and recovery of the index from a snapshot and the log.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.history;
