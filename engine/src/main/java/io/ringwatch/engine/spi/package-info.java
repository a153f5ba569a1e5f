/**
 * The engine's persistence seam: what a persistence implementation provides so that an engine
 * records every revision, recovers after a restart and lets watchers catch up from beyond the
 * watch window. The engine ships no implementation and depends on no storage library; the
 * Chronicle Queue one is {@code io.ringwatch.persistence.LogConfig} in the
 * {@code io.ringwatch:ringwatch-persistence} artifact.
 *
 * <p>{@link io.ringwatch.engine.spi.Persistence} opens a {@link io.ringwatch.engine.spi.Journal}
 * once per engine; the engine owns it from then on and closes it last, after its writer, delivery
 * and snapshot threads have stopped. Threads: the engine's journal thread is the journal's only
 * appender ({@code appendRevision}, {@code flush}); its snapshot thread the only user of
 * {@code newSnapshot}; recovery runs on the opening thread before any other starts; readers
 * ({@link io.ringwatch.engine.spi.HistoryReader}) are each used by one thread at a time, on
 * delivery and callers' threads. Methods on the journal thread must not allocate per change.
 *
 * <p>Part of the public API, for implementers: it depends on no internal package of the engine.
 */
package io.ringwatch.engine.spi;
