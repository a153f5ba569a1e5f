package io.ringwatch.jmh.engine;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * One pre-allocated entry of the bare-ring baseline: the key and value bytes copied in, as the
 * engine's ring entry holds them, and the producer's {@link Rendezvous}. Filled by the producer that
 * claimed it, read by the handler after publication; allocates nothing once its buffers have grown
 * to the largest key and value.
 */
final class PutSlot
{
    private final ExpandableArrayBuffer key = new ExpandableArrayBuffer(64);
    private final ExpandableArrayBuffer value = new ExpandableArrayBuffer(128);
    private Rendezvous rendezvous;

    /**
     * Copies a put into this slot. Claiming producer thread.
     *
     * @param keySource   buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length.
     * @param valueSource buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length.
     * @param rendezvous  told when the handler is done with this slot.
     */
    void fill(
        final DirectBuffer keySource, final int keyOffset, final int keyLength,
        final DirectBuffer valueSource, final int valueOffset, final int valueLength,
        final Rendezvous rendezvous)
    {
        key.putBytes(0, keySource, keyOffset, keyLength);
        value.putBytes(0, valueSource, valueOffset, valueLength);
        this.rendezvous = rendezvous;
    }

    /**
     * Hands the slot back to its producer without looking at the payload. Handler thread.
     */
    void complete()
    {
        rendezvous.complete();
    }
}
