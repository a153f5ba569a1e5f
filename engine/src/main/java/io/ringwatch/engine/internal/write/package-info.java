/**
 * The write path: validation on the caller's thread, the Disruptor ring, the one writer thread that
 * applies each revision to the index, the journal stage behind it, and the completions that tell a
 * caller its write is applied (or durable).
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.write;
