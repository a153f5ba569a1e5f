/**
 * The lease table the writer owns (issue 15): each live lease, its deadline, and its keys in key
 * order. Everything here is touched by the writer thread only, so nothing is locked or published;
 * the time is always a parameter (the writer reads no clock), and every list this package hands
 * out is ordered by key or by id, never by hash.
 *
 * <p>Internal: not part of RingWatch's compatibility promise. Its public types are public only so
 * that the engine's other packages can reach them; they may change or go away in any release.
 */
package io.ringwatch.engine.internal.lease;
