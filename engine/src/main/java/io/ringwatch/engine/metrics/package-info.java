/**
 * Micrometer meters for an engine ({@link io.ringwatch.engine.metrics.RingWatchMetrics}). The
 * only package of the engine that needs Micrometer (an optional dependency): the rest of the
 * engine runs without it on the class path.
 */
package io.ringwatch.engine.metrics;
