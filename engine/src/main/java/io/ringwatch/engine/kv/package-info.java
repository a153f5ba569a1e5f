/**
 * Keys and values as a caller sees them: {@link io.ringwatch.engine.kv.KeyValue},
 * {@link io.ringwatch.engine.kv.KeyRange}, the operations and transactions a writer submits
 * ({@link io.ringwatch.engine.kv.Op}, {@link io.ringwatch.engine.kv.Txn}) and their results. Values
 * of these types are immutable and safe to share between threads.
 */
package io.ringwatch.engine.kv;
