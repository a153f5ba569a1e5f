package io.ringwatch.replay;

import io.ringwatch.persistence.ChangeType;
import io.ringwatch.persistence.LeaseFile;

/**
 * How {@code print} and {@code state} write their lines: {@code text} for people (printable UTF-8
 * in quotes, anything else as hex) or {@code json} for programs (JSON Lines; bytes as UTF-8
 * strings, else base64 with a flag). Stateless; any thread; allocates the lines it returns.
 */
enum OutputFormat
{
    /** One human-readable line per event or key. */
    TEXT
    {
        @Override
        String event(final long revision, final long timestampNanos, final byte type, final byte[] key,
            final KeyState after, final KeyState before)
        {
            return "rev=" + revision + " time=" + instant(timestampNanos) + " " + typeName(type) +
                " key=" + ByteText.printable(key) +
                " value=" + (after == null ? "-" : ByteText.printable(after.value())) +
                " create=" + (after == null ? 0 : after.createRevision()) +
                " mod=" + modRevision(revision, after) +
                " version=" + (after == null ? 0 : after.version()) +
                " prev=" + (before == null ? "-" : ByteText.printable(before.value())) +
                (after == null || after.lease() == 0 ? "" : " lease=" + after.lease());
        }

        @Override
        String entry(final KeyState state)
        {
            return "key=" + ByteText.printable(state.key()) + " value=" + ByteText.printable(state.value()) +
                " create=" + state.createRevision() + " mod=" + state.modRevision() + " version=" + state.version() +
                (state.lease() == 0 ? "" : " lease=" + state.lease());
        }

        @Override
        String lease(final LeaseFile.Record record)
        {
            return "rev=" + record.revision() + " LEASE_" + (record.op() == LeaseFile.GRANT ? "GRANT" : "END") +
                " lease=" + record.id() + (record.op() == LeaseFile.GRANT ? " ttl=" + record.ttlSeconds() : "");
        }

        @Override
        String liveLease(final long id, final long ttlSeconds, final long keys)
        {
            return "lease=" + id + " ttl=" + ttlSeconds + " keys=" + keys;
        }
    },

    /** One JSON object per line. */
    JSON
    {
        @Override
        String event(final long revision, final long timestampNanos, final byte type, final byte[] key,
            final KeyState after, final KeyState before)
        {
            return new JsonLine()
                .number("revision", revision)
                .string("time", instant(timestampNanos))
                .number("timestampNanos", timestampNanos)
                .string("type", typeName(type))
                .bytes("key", key)
                .bytes("value", after == null ? null : after.value())
                .number("createRevision", after == null ? 0 : after.createRevision())
                .number("modRevision", modRevision(revision, after))
                .number("version", after == null ? 0 : after.version())
                .number("lease", after == null ? 0 : after.lease())
                .bytes("prevValue", before == null ? null : before.value())
                .number("prevCreateRevision", before == null ? 0 : before.createRevision())
                .number("prevModRevision", before == null ? 0 : before.modRevision())
                .number("prevVersion", before == null ? 0 : before.version())
                .number("prevLease", before == null ? 0 : before.lease())
                .end();
        }

        @Override
        String entry(final KeyState state)
        {
            return new JsonLine()
                .bytes("key", state.key())
                .bytes("value", state.value())
                .number("createRevision", state.createRevision())
                .number("modRevision", state.modRevision())
                .number("version", state.version())
                .number("lease", state.lease())
                .end();
        }

        @Override
        String lease(final LeaseFile.Record record)
        {
            return new JsonLine()
                .number("revision", record.revision())
                .string("type", record.op() == LeaseFile.GRANT ? "LEASE_GRANT" : "LEASE_END")
                .number("lease", record.id())
                .number("ttlSeconds", record.ttlSeconds())
                .end();
        }

        @Override
        String liveLease(final long id, final long ttlSeconds, final long keys)
        {
            return new JsonLine()
                .number("lease", id)
                .number("ttlSeconds", ttlSeconds)
                .number("keys", keys)
                .end();
        }
    };

    /** Each thread's formatter (the tool formats on its command thread only). */
    private static final ThreadLocal<InstantText> INSTANTS = ThreadLocal.withInitial(InstantText::new);

    /**
     * One event (a change of a revision).
     *
     * @param revision       the revision.
     * @param timestampNanos when it was applied, epoch nanoseconds.
     * @param type           {@link ChangeType#PUT} or {@link ChangeType#DELETE}.
     * @param key            the key.
     * @param after          the key's state after it; null for a delete (printed as the live
     *                       event shows it: mod revision = {@code revision}, create and version 0).
     * @param before         the key's state before it; null when it did not exist.
     * @return the line, without a line end.
     */
    abstract String event(long revision, long timestampNanos, byte type, byte[] key, KeyState after, KeyState before);

    /**
     * One key's state.
     *
     * @param state the key's state.
     * @return the line, without a line end.
     */
    abstract String entry(KeyState state);

    /**
     * One record of the lease log: a grant or an end, placed after the revision it names.
     *
     * @param record the record.
     * @return the line, without a line end.
     */
    abstract String lease(LeaseFile.Record record);

    /**
     * One lease live at the revision {@code state} rebuilt.
     *
     * @param id         the lease id.
     * @param ttlSeconds its granted TTL.
     * @param keys       how many of the printed keys are attached to it.
     * @return the line, without a line end.
     */
    abstract String liveLease(long id, long ttlSeconds, long keys);

    /**
     * An epoch-nanosecond timestamp as an ISO-8601 instant.
     *
     * @param epochNanos the timestamp.
     * @return for example {@code 2025-06-01T10:00:00.123Z}.
     */
    static String instant(final long epochNanos)
    {
        return INSTANTS.get().format(epochNanos);
    }

    /**
     * The event's mod revision as the live watch event carries it: a PUT's own, and for a DELETE
     * the delete's revision (etcd's tombstone: the key, an empty value, create revision and
     * version 0, mod revision the delete's).
     */
    private static long modRevision(final long revision, final KeyState after)
    {
        return after == null ? revision : after.modRevision();
    }

    private static String typeName(final byte type)
    {
        return type == ChangeType.PUT ? "PUT" : "DELETE";
    }
}
