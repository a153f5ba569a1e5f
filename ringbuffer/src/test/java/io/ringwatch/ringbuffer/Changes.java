package io.ringwatch.ringbuffer;

import org.agrona.DirectBuffer;

/**
 * Appends one change to a window from loose fields, through a {@link ChangeRecord} of the calling
 * thread: how tests state an event in a line.
 */
final class Changes
{
    private static final ThreadLocal<ChangeRecord> RECORD = ThreadLocal.withInitial(ChangeRecord::new);

    private Changes()
    {
    }

    /**
     * Builds the change (its modRevision being {@code revision}) and appends it.
     *
     * @return the event's sequence.
     */
    static long append(
        final WatchWindow window,
        final long revision,
        final EventType type,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long createRevision, final long version,
        final DirectBuffer prevValue, final int prevValueOffset, final int prevValueLength,
        final long prevCreateRevision, final long prevModRevision, final long prevVersion)
    {
        final ChangeRecord record = RECORD.get();
        record.clear();
        record.add(type, key, keyOffset, keyLength, value, valueOffset, valueLength, createRevision, revision, version,
            prevValue, prevValueOffset, prevValueLength, prevCreateRevision, prevModRevision, prevVersion);
        return window.append(revision, record);
    }
}
