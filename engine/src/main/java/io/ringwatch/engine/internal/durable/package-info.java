/**
 * The Chronicle Queue journal: the engine's journal seam on the persistence module's revision log,
 * its history readers and the index snapshots written beside it.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.durable;
