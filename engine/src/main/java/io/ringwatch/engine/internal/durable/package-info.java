/**
 * Index snapshots of a persistent engine: when to take one, the fuzzy scan of the index, and when
 * it may be committed beside the journal ({@link io.ringwatch.engine.spi.Journal#newSnapshot}).
 * The snapshot's format belongs to the journal's implementation.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.durable;
