/**
 * Leases: keys that expire, as etcd's (issue 15). A lease is granted with a TTL, kept alive,
 * revoked, or expires; keys are attached to it by puts ({@link io.ringwatch.engine.kv.Op#withLease});
 * when it ends, every key attached to it is deleted in one revision. Reached through
 * {@link io.ringwatch.engine.RingWatch#leases()}. Every lease operation and every expiry is decided
 * by the engine's one writer thread, in order with the writes, from a time its caller stamped.
 */
package io.ringwatch.engine.lease;
