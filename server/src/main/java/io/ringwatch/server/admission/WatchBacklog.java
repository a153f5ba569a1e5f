package io.ringwatch.server.admission;

/**
 * What {@link WriteAdmission} needs to know of one watch stream that is behind: whether its client
 * reads, and how far its watches that have something to send have got.
 *
 * <p>Called on the thread that runs {@link WriteAdmission#evaluate}.
 */
public interface WatchBacklog
{
    /**
     * @return the {@link System#nanoTime()} at which the stream was last seen ready to take a
     * response (its client had read what it was sent, or had room left).
     */
    long lastReadyNanos();

    /**
     * @return the lowest revision up to which every live watch of the stream that has something to
     * send has been handed the events it wants, or {@link Long#MAX_VALUE} when none has.
     */
    long position();
}
