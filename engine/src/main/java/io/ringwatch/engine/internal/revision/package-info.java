/**
 * The writer's published revisions as readers see them ({@link
 * io.ringwatch.engine.internal.revision.PublishedRevisions}): the one type the read side and the
 * write side share, kept below both so that neither depends on the other through it.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them; they may
 * change or go away in any release.
 */
package io.ringwatch.engine.internal.revision;
