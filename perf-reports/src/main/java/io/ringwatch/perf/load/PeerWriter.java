package io.ringwatch.perf.load;

/**
 * Sends the writes of one producer thread to a peer. Not thread-safe: one per producer thread.
 */
public interface PeerWriter
{
    /**
     * Sends one write of the key {@code keyIndex} whose value carries {@code intendedNanos}, and
     * arranges for its acknowledgement latency to be recorded (now, or when the peer acknowledges).
     *
     * @param keyIndex      the key's number in the workload.
     * @param intendedNanos when the write was meant to be sent.
     * @throws InterruptedException if interrupted while waiting for room to send.
     */
    void write(int keyIndex, long intendedNanos) throws InterruptedException;
}
