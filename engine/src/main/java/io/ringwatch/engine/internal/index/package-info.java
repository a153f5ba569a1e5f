/**
 * The off-heap index of the current state of every key: one writer, lock-free readers that never
 * see a torn entry, no per-key heap objects.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.index;
