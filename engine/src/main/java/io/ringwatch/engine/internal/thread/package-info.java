/**
 * Waiting for the engine's own threads and latches without letting an interrupt strand a stage:
 * used by every package that starts a thread (the write path's stages, recovery's reader and
 * chunk prefault), so it depends on none of them.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.thread;
