/**
 * RingWatch's entry point: {@link io.ringwatch.engine.RingWatch} opens an engine and is the one
 * type an application calls to write, read and watch; {@link io.ringwatch.engine.JvmFlags} names
 * the JVM flags the engine needs on this JDK.
 *
 * <p>The public API is this package and {@code .config}, {@code .errors}, {@code .kv},
 * {@code .watch}, {@code .secondary}, {@code .idle}, {@code .coalesce}, {@code .stats},
 * {@code .metrics} and {@code io.ringwatch.informer}. Everything under
 * {@code io.ringwatch.engine.internal} is the implementation and is not part of the compatibility
 * promise (ARCHITECTURE.md, "Package map").
 */
package io.ringwatch.engine;
