/**
 * Consistent reads while the writer keeps writing: ranges and counts pinned at a revision, reads
 * at a past revision merged from history, and the packed results handed to the caller.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.read;
