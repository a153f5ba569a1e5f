package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.DirectBuffer;

/**
 * The zero-allocation write API: keys and values as slices of Agrona buffers, results as
 * primitives. The bytes are copied into the ring slot before a call returns, so the caller may
 * reuse its buffers at once. One instance per producer thread: it is not thread-safe (its
 * blocking calls share one per-thread rendezvous with the writer).
 *
 * <p>Blocking calls allocate nothing; {@code putAsync} allocates nothing beyond what the
 * callback does.
 */
public final class DirectWriter
{
    /** Returned by {@link #putIfModRevision} when the key's mod revision did not match. */
    public static final long NOT_APPLIED = -1;

    private final WritePipeline pipeline;
    private long lastRevision;

    DirectWriter(final WritePipeline pipeline)
    {
        this.pipeline = pipeline;
    }

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
     * @throws InvalidRequestException for a bad length.
     * @throws EngineClosedException   after close.
     */
    public long put(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        final BlockingCompletion completion = pipeline.armedCompletion();
        pipeline.publishDirectPut(key, keyOffset, keyLength, value, valueOffset, valueLength,
            WriteCommand.ANY_REVISION, completion, null);
        completion.await();
        lastRevision = completion.revision;
        return completion.revision;
    }

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
     * @throws InvalidRequestException for a bad length or a negative expectation.
     */
    public long putIfModRevision(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long expectedModRevision)
    {
        if (expectedModRevision < 0)
        {
            throw new InvalidRequestException("expected mod revision must not be negative: " + expectedModRevision);
        }
        final BlockingCompletion completion = pipeline.armedCompletion();
        pipeline.publishDirectPut(key, keyOffset, keyLength, value, valueOffset, valueLength,
            expectedModRevision, completion, null);
        completion.await();
        lastRevision = completion.revision;
        return completion.succeeded ? completion.revision : NOT_APPLIED;
    }

    /**
     * Deletes one key and waits.
     *
     * @param key       buffer holding the key.
     * @param keyOffset where the key starts.
     * @param keyLength the key's length.
     * @return 1 when the key existed and was deleted, 0 when it did not exist (nothing changed).
     */
    public long delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final BlockingCompletion completion = pipeline.armedCompletion();
        pipeline.publishDirectDelete(key, keyOffset, keyLength, completion, null);
        completion.await();
        lastRevision = completion.revision;
        return completion.deleted;
    }

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
     */
    public void putAsync(
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final WriteCallback callback)
    {
        if (callback == null)
        {
            throw new InvalidRequestException("callback must not be null");
        }
        pipeline.publishDirectPut(key, keyOffset, keyLength, value, valueOffset, valueLength,
            WriteCommand.ANY_REVISION, null, callback);
    }

    /**
     * @return the store revision after this writer's last blocking call.
     */
    public long lastRevision()
    {
        return lastRevision;
    }
}
