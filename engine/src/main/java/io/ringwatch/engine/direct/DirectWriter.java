package io.ringwatch.engine.direct;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.DirectBuffer;

/**
 * The zero-allocation write API ({@code RingWatch.newDirectWriter()}): keys and values as slices
 * of Agrona buffers, results as primitives. The bytes are copied into the ring slot before a call
 * returns, so the caller may reuse its buffers at once. One instance per producer thread: it is
 * not thread-safe (its blocking calls share one per-thread rendezvous with the writer).
 *
 * <p>Blocking calls allocate nothing; {@code putAsync} allocates nothing beyond what the
 * callback does.
 */
public interface DirectWriter
{
    /** Returned by {@link #putIfModRevision} when the key's mod revision did not match. */
    long NOT_APPLIED = -1;

    /**
     * Puts a key and waits for it to be applied.
     *
     * @param key         buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length; 1 to the configured limit.
     * @param value       buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length; 0 to the configured limit.
     * @return the revision of the put.
     * @throws InvalidRequestException for a bad length, or a slice outside its buffer.
     * @throws EngineClosedException   after close.
     */
    long put(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength);

    /**
     * Puts a key only if its mod revision equals {@code expectedModRevision} (0: only if absent),
     * and waits: Kubernetes' optimistic concurrency.
     *
     * @param key                 buffer holding the key.
     * @param keyOffset           where the key starts.
     * @param keyLength           the key's length.
     * @param value               buffer holding the value.
     * @param valueOffset         where the value starts.
     * @param valueLength         the value's length.
     * @param expectedModRevision the mod revision the key must have; not negative.
     * @return the revision of the put, or {@link #NOT_APPLIED} when the revision did not match.
     * @throws InvalidRequestException for a bad length, a slice outside its buffer or a negative
     *                                 expectation.
     */
    long putIfModRevision(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        long expectedModRevision);

    /**
     * Deletes one key and waits.
     *
     * @param key       buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length.
     * @return 1 when the key existed and was deleted, 0 when it did not exist (nothing changed).
     * @throws InvalidRequestException for an empty or too long key, or a slice outside its buffer.
     */
    long delete(DirectBuffer key, int keyOffset, int keyLength);

    /**
     * Puts a key without waiting; {@code callback} hears the outcome on the writer thread.
     *
     * @param key         buffer holding the key.
     * @param keyOffset   where the key starts.
     * @param keyLength   the key's length.
     * @param value       buffer holding the value.
     * @param valueOffset where the value starts.
     * @param valueLength the value's length.
     * @param callback    told the outcome; must be quick (see {@link WriteCallback}).
     * @throws InvalidRequestException for a bad length, a slice outside its buffer or a null callback.
     * @throws io.ringwatch.engine.errors.RingWatchException called from a callback (the thread that
     *         completes writes) while the write ring is full: refused rather than waiting for itself.
     */
    void putAsync(
        DirectBuffer key, int keyOffset, int keyLength,
        DirectBuffer value, int valueOffset, int valueLength,
        WriteCallback callback);

    /**
     * @return the store revision after this writer's last blocking call.
     */
    long lastRevision();
}
