/**
 * The zero-allocation API: {@link io.ringwatch.engine.direct.DirectWriter} (keys and values as
 * slices of Agrona buffers, revisions as primitives, {@link io.ringwatch.engine.direct.WriteCallback}
 * for writes that do not wait) and {@link io.ringwatch.engine.direct.DirectEntry}, the reusable
 * holder of a point read. Instances come from the facade ({@code RingWatch.newDirectWriter()},
 * {@code RingWatch.newDirectEntry()}) and belong to one thread at a time.
 */
package io.ringwatch.engine.direct;
