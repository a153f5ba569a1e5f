package io.ringwatch.jcstress;

import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventRecord;
import io.ringwatch.ringbuffer.EventType;
import io.ringwatch.ringbuffer.WatchWindow;
import io.ringwatch.ringbuffer.WindowConfig;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The events the {@link WatchWindow} stress tests write, and the check a reader makes of what it read.
 * <p>
 * Event {@code s} has revision {@code r = s + 1} and is a PUT of the one key {@code "key"} whose every field
 * follows from {@code r}: the value is {@code r}'s byte pattern (3, 6, 9 or 12 bytes, so a torn length shows
 * too), createRevision 1, version {@code r}, and, from {@code r = 2} on, the previous key-value of revision
 * {@code r - 1}. A read whose fields do not all belong to the sequence asked for is {@link #WRONG}.
 * <p>
 * Outcomes are these string constants, so a jcstress report reads as words. {@link #append} and
 * {@link #read}: the window's writer and a reader thread respectively; neither allocates (the record only grows
 * to the largest event, 27 bytes, which its initial size already holds).
 */
final class WindowEvents
{
    /** {@link WatchWindow#READ_OK} with exactly the event of the sequence read. */
    static final String OK = "OK";
    /** {@link WatchWindow#READ_OK} with content that is not that event: torn, mixed or another event. */
    static final String WRONG = "WRONG";
    /** {@link WatchWindow#READ_LAPPED}. */
    static final String LAPPED = "LAPPED";
    /** {@link WatchWindow#READ_NOT_PUBLISHED}. */
    static final String NOT_PUBLISHED = "NOT_PUBLISHED";

    /** Freshness of every test window; the resize tests' clocks move in steps far above or below it. */
    static final long FRESHNESS_NANOS = 1_000;
    /** Bytes each {@link EventRecord} starts with: more than any event here, so reads never allocate. */
    static final int RECORD_BUFFER_BYTES = 32;

    private static final int MAX_EVENT_BYTES = 32;
    private static final int LAST_REVISION = 16;
    private static final int VALUE_STRIDE = 16;
    private static final byte[] KEY = {'k', 'e', 'y'};
    private static final long CREATE_REVISION = 1;
    /** Every value pattern at {@code revision * VALUE_STRIDE}; read-only once built, shared by all threads. */
    private static final UnsafeBuffer VALUES = valuePatterns();
    private static final UnsafeBuffer KEY_BUFFER = new UnsafeBuffer(KEY);
    /** Each writer thread's change, built in place so that appending allocates nothing once it exists. */
    private static final ThreadLocal<ChangeRecord> CHANGE = ThreadLocal.withInitial(ChangeRecord::new);

    private WindowEvents()
    {
    }

    /**
     * A window config for a test: small events and the test freshness. Allocates the config.
     *
     * @param minCapacity       lower capacity bound.
     * @param maxCapacity       upper capacity bound.
     * @param dataBytesPerEvent sizes the data ring: 64 keeps every event of these tests in it (only slots
     *                          lap), 16 gives a 128-byte ring that the data of the events overruns too.
     * @return the config.
     */
    static WindowConfig config(final int minCapacity, final int maxCapacity, final int dataBytesPerEvent)
    {
        return WindowConfig.builder()
            .minCapacity(minCapacity)
            .maxCapacity(maxCapacity)
            .freshnessNanos(FRESHNESS_NANOS)
            .maxEventBytes(MAX_EVENT_BYTES)
            .dataBytesPerEvent(dataBytesPerEvent)
            .build();
    }

    /**
     * Appends event {@code sequence} (without publishing it). The window's writer thread only.
     *
     * @param window   the window; its next sequence must be {@code sequence}.
     * @param sequence the sequence the event gets, 0 to 15.
     * @throws IllegalStateException if the window gave the event another sequence.
     */
    static void append(final WatchWindow window, final long sequence)
    {
        final int revision = revisionOf(sequence);
        final int prevRevision = revision - 1;
        final boolean hasPrev = prevRevision > 0;
        final ChangeRecord change = CHANGE.get();
        change.clear();
        change.add(
            EventType.PUT,
            KEY_BUFFER, 0, KEY.length,
            VALUES, valueOffset(revision), valueLength(revision),
            CREATE_REVISION,
            revision,
            revision,
            VALUES, hasPrev ? valueOffset(prevRevision) : 0, hasPrev ? valueLength(prevRevision) : 0,
            hasPrev ? CREATE_REVISION : 0,
            prevRevision,
            prevRevision);
        final long appended = window.append(revision, change);
        if (appended != sequence)
        {
            throw new IllegalStateException("appended sequence " + appended + ", expected " + sequence);
        }
    }

    /**
     * Appends events {@code first} to {@code last} inclusive, then publishes them. Writer thread only.
     *
     * @param window the window; its next sequence must be {@code first}.
     * @param first  the first sequence.
     * @param last   the last sequence.
     */
    static void appendAndPublish(final WatchWindow window, final long first, final long last)
    {
        for (long sequence = first; sequence <= last; sequence++)
        {
            append(window, sequence);
        }
        window.publish();
    }

    /**
     * Reads event {@code sequence} and names the outcome. Any reader thread, with its own record.
     *
     * @param window   the window.
     * @param sequence the sequence to read.
     * @param into     the reader's record.
     * @return {@link #OK}, {@link #WRONG}, {@link #LAPPED} or {@link #NOT_PUBLISHED}.
     */
    static String read(final WatchWindow window, final long sequence, final EventRecord into)
    {
        final int result = window.read(sequence, into);
        switch (result)
        {
            case WatchWindow.READ_OK:
                return isEvent(into, sequence) ? OK : WRONG;
            case WatchWindow.READ_LAPPED:
                return LAPPED;
            case WatchWindow.READ_NOT_PUBLISHED:
                return NOT_PUBLISHED;
            default:
                throw new IllegalStateException("unknown read result " + result);
        }
    }

    private static boolean isEvent(final EventRecord record, final long sequence)
    {
        final int revision = revisionOf(sequence);
        final int prevRevision = revision - 1;
        final boolean hasPrev = prevRevision > 0;
        return record.sequence() == sequence &&
            record.revision() == revision &&
            record.type() == EventType.PUT &&
            sameBytes(record.key(), record.keyLength(), KEY_BUFFER, 0, KEY.length) &&
            sameBytes(record.value(), record.valueLength(), VALUES, valueOffset(revision), valueLength(revision)) &&
            record.createRevision() == CREATE_REVISION &&
            record.version() == revision &&
            record.hasPrev() == hasPrev &&
            record.prevModRevision() == prevRevision &&
            record.prevCreateRevision() == (hasPrev ? CREATE_REVISION : 0) &&
            record.prevVersion() == prevRevision &&
            sameBytes(
                record.prevValue(), record.prevValueLength(),
                VALUES, hasPrev ? valueOffset(prevRevision) : 0, hasPrev ? valueLength(prevRevision) : 0);
    }

    private static boolean sameBytes(
        final DirectBuffer actual, final int actualLength,
        final DirectBuffer expected, final int expectedOffset, final int expectedLength)
    {
        if (actualLength != expectedLength)
        {
            return false;
        }
        for (int i = 0; i < expectedLength; i++)
        {
            if (actual.getByte(i) != expected.getByte(expectedOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    private static int revisionOf(final long sequence)
    {
        if (sequence < 0 || sequence >= LAST_REVISION)
        {
            throw new IllegalArgumentException("sequence outside the test's events: " + sequence);
        }
        return (int)sequence + 1;
    }

    private static int valueOffset(final int revision)
    {
        return revision * VALUE_STRIDE;
    }

    private static int valueLength(final int revision)
    {
        return 3 * (1 + revision % 4);
    }

    private static UnsafeBuffer valuePatterns()
    {
        final UnsafeBuffer values = new UnsafeBuffer(new byte[(LAST_REVISION + 1) * VALUE_STRIDE]);
        for (int revision = 1; revision <= LAST_REVISION; revision++)
        {
            for (int i = 0; i < valueLength(revision); i++)
            {
                // Differs between revisions at every position, so bytes of two events never pass as one.
                values.putByte(valueOffset(revision) + i, (byte)(revision * 31 + i));
            }
        }
        return values;
    }
}
