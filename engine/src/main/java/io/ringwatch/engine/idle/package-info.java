/**
 * The wait and idle strategies the engine's threads use by default, and that a
 * {@link io.ringwatch.engine.config.RingWatchConfig} may name with other parameters: they spin, then
 * park until the thread that hands them work rings their {@link io.ringwatch.engine.idle.Doorbell},
 * so an idle engine holds no core. Public API because the configuration takes them.
 */
package io.ringwatch.engine.idle;
