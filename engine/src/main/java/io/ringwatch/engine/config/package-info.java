/**
 * How an engine is sized and how its threads wait: {@link io.ringwatch.engine.config.RingWatchConfig}
 * and its builder. Immutable once built; any thread may read a configuration.
 */
package io.ringwatch.engine.config;
