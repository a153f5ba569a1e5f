/**
 * The engine's secondary indexes: off-heap index values kept current by the writer, consistent
 * reads by index value, and the routes that let a watch select by index.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.secondary;
