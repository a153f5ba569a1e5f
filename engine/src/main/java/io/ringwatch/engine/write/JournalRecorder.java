package io.ringwatch.engine.write;

import io.ringwatch.engine.JournalFailedException;
import io.ringwatch.engine.history.Journal;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.DirectBuffer;

/**
 * The writer's side of the {@link Journal}: forwards each revision and turns the first failure
 * into a {@link JournalFailedException} that sticks, after which every call does nothing, so the
 * writer can finish the revision in memory and fail every later write. Writer thread only;
 * allocates nothing unless the journal fails.
 */
final class JournalRecorder
{
    private final Journal journal;
    private final boolean flushBeforeAcknowledge;
    private JournalFailedException failure;

    JournalRecorder(final Journal journal)
    {
        this.journal = journal;
        this.flushBeforeAcknowledge = journal.isSync();
    }

    /**
     * @return true when writes may be acknowledged only after {@link #flush()}.
     */
    boolean flushBeforeAcknowledge()
    {
        return flushBeforeAcknowledge;
    }

    /**
     * @return the failure that stopped the journal, or null while it works.
     */
    JournalFailedException failure()
    {
        return failure;
    }

    void begin(final long revision)
    {
        if (failure == null)
        {
            try
            {
                journal.beginRevision(revision, System.currentTimeMillis());
            }
            catch (final RuntimeException e)
            {
                throw fail("recording revision " + revision, e);
            }
        }
    }

    void change(
        final EventType type,
        final DirectBuffer key, final int keyLength,
        final DirectBuffer value, final int valueLength,
        final long createRevision, final long version,
        final DirectBuffer prevValue, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        if (failure == null)
        {
            try
            {
                journal.appendChange(type, key, 0, keyLength, value, 0, valueLength, createRevision, version,
                    prevValue, 0, prevValueLength, prevCreateRevision, prevModRevision, prevVersion);
            }
            catch (final RuntimeException e)
            {
                throw fail("recording a change", e);
            }
        }
    }

    void end(final long revision)
    {
        if (failure == null)
        {
            try
            {
                journal.endRevision();
            }
            catch (final RuntimeException e)
            {
                throw fail("recording revision " + revision, e);
            }
        }
    }

    void flush()
    {
        if (failure == null)
        {
            try
            {
                journal.flush();
            }
            catch (final RuntimeException e)
            {
                throw fail("forcing the revision log to disk", e);
            }
        }
    }

    private JournalFailedException fail(final String what, final RuntimeException cause)
    {
        failure = new JournalFailedException("the revision log failed " + what + "; the engine refuses writes: " + cause, cause);
        return failure;
    }
}
