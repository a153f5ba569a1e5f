/**
 * The engine's past: the history that watchers catch up from (window, then the journal of
 * {@code io.ringwatch.engine.spi}), and recovery of the index from a snapshot and the journal.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.history;
