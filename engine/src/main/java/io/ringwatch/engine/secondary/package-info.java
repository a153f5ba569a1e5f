/**
 * How an application defines a secondary index: an {@link io.ringwatch.engine.secondary.IndexFunction}
 * derives index values from a value and hands them to an
 * {@link io.ringwatch.engine.secondary.IndexValueSink}; {@code RingWatch.addIndex} registers it and
 * {@code RingWatch.byIndex} reads by it. The indexes themselves live in the engine's internals.
 */
package io.ringwatch.engine.secondary;
