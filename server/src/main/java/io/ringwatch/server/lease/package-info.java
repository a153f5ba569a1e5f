/**
 * etcd's Lease service over the engine's leases ({@code RingWatch.leases()}): grant, revoke, the
 * keep-alive stream, time to live with keys, and the list of leases.
 */
package io.ringwatch.server.lease;
