package io.ringwatch.engine.internal.write;

import io.ringwatch.engine.direct.DirectWriter;
import io.ringwatch.engine.direct.WriteCallback;
import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.DirectBuffer;

/**
 * The {@link DirectWriter} over the write pipeline: each call claims a ring slot and copies the
 * key and value into it ({@link WritePipeline#publishDirectPut}); a blocking call then waits on the
 * calling thread's {@link BlockingCompletion}. One instance per producer thread, as the interface
 * says; allocates nothing per call.
 */
public final class PipelineDirectWriter implements DirectWriter
{
    private final WritePipeline pipeline;
    private long lastRevision;

    PipelineDirectWriter(final WritePipeline pipeline)
    {
        this.pipeline = pipeline;
    }

    @Override
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

    @Override
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

    @Override
    public long delete(final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        final BlockingCompletion completion = pipeline.armedCompletion();
        pipeline.publishDirectDelete(key, keyOffset, keyLength, completion, null);
        completion.await();
        lastRevision = completion.revision;
        return completion.deleted;
    }

    @Override
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

    @Override
    public long lastRevision()
    {
        return lastRevision;
    }
}
