/**
 * An engine's figures without a metrics library: {@link io.ringwatch.engine.stats.EngineStats}
 * (revisions, window, watchers by state and by cancel reason, pending entries, journal and
 * snapshot timings, delivery threads) and a per-watcher
 * {@link io.ringwatch.engine.stats.WatcherView} (position, lag, state). The Micrometer binder in
 * {@code io.ringwatch.engine.metrics} reads these; nothing here needs Micrometer.
 */
package io.ringwatch.engine.stats;
