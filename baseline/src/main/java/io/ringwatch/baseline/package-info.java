/**
 * The watchable store a team would write with java.util.concurrent alone, in the shape of the
 * Kubernetes watch Broadcaster: the one baseline that the JMH benchmarks and the load harness
 * measure RingWatch against, so that their figures describe the same design.
 */
package io.ringwatch.baseline;
