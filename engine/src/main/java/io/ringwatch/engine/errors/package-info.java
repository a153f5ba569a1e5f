/**
 * Every exception the engine throws to a caller, all unchecked and all under
 * {@link io.ringwatch.engine.errors.RingWatchException}: bad input
 * ({@link io.ringwatch.engine.errors.InvalidRequestException}, which changes nothing), a closed
 * engine, a compacted or future revision, a failed journal, missing JVM flags, an exceeded read
 * budget and the secondary-index errors. A caller can catch the base type or the one it can act on.
 */
package io.ringwatch.engine.errors;
