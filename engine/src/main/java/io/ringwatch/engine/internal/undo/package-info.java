/**
 * Pinned consistent reads: a reader pins the revision it reads at ({@link io.ringwatch.engine.internal.undo.UndoLog#pin()}),
 * and while any pin is active the writer keeps, in an off-heap undo area, the pre-image of every
 * key it changes that some pinned reader may still need, so a scan of the live index can be turned
 * into the exact state at the pinned revision however fast the writer goes.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages, the benchmarks and the stress tests can reach them;
 * they may change or go away in any release.
 */
package io.ringwatch.engine.internal.undo;
