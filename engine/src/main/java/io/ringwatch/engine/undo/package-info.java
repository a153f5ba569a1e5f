/**
 * Pinned consistent reads: a reader pins the revision it reads at ({@link io.ringwatch.engine.undo.UndoLog#pin()}),
 * and while any pin is active the writer keeps, in an off-heap undo area, the pre-image of every
 * key it changes that some pinned reader may still need, so a scan of the live index can be turned
 * into the exact state at the pinned revision however fast the writer goes.
 */
package io.ringwatch.engine.undo;
