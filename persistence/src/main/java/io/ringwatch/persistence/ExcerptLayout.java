package io.ringwatch.persistence;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.agrona.ExpandableDirectByteBuffer;

/**
 * The binary layout of one revision excerpt, little-endian:
 * <pre>
 *  0 int   CRC32C of bytes [4, length)
 *  4 byte  format version
 *  5 byte  kind: REVISION, VOID for an excerpt dropped as torn when the log was opened, or SKIP
 *  6 short reserved, 0
 *  8 int   change count (0 for VOID and SKIP)
 * 12 long  revision (for VOID: the newest valid revision before it, so revisions stay ordered;
 *          for SKIP: the last revision skipped)
 * 20 long  timestamp, nanoseconds
 * 28 SKIP only: long, the first revision skipped; the excerpt ends there (36 bytes)
 * 28 REVISION only: changes, each:
 *     0 byte type   1 int keyLen   5 int valueLen   9 int prevValueLen
 *    13 long createRevision  21 long modRevision  29 long version
 *    37 long prevCreateRevision  45 long prevModRevision  53 long prevVersion
 *    61 long lease  69 long prevLease (format 2, issue 15: 0 for none)
 *    77 key bytes, value bytes, prev value bytes
 * </pre>
 * Fixed-width fields keep every field addressable in O(1) by a flyweight. A SKIP excerpt says that
 * the revisions from its first to its last skipped one will never exist: a writable open after an
 * unclean close of an ASYNC log appends one ({@link RevisionLog#skipTo}), because a watcher may
 * have seen those numbers on changes the crash took. Readers step over VOID and SKIP excerpts;
 * revision fields never decrease along the log. Package-private.
 */
final class ExcerptLayout
{
    /** 2 since leases (issue 15): each change carries the key's lease after and before it. */
    static final byte FORMAT_VERSION = 2;
    static final byte KIND_REVISION = 1;
    static final byte KIND_VOID = 2;
    static final byte KIND_SKIP = 3;
    /** A SKIP excerpt's length: the header and its first skipped revision. */
    static final int SKIP_LENGTH = 36;
    /** Where a SKIP excerpt holds its first skipped revision. */
    static final int SKIP_FROM_OFFSET = 28;

    static final int CRC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int KIND_OFFSET = 5;
    static final int CHANGE_COUNT_OFFSET = 8;
    static final int REVISION_OFFSET = 12;
    static final int TIMESTAMP_OFFSET = 20;
    static final int HEADER_LENGTH = 28;

    static final int TYPE = 0;
    static final int KEY_LENGTH = 1;
    static final int VALUE_LENGTH = 5;
    static final int PREV_VALUE_LENGTH = 9;
    static final int CREATE_REVISION = 13;
    static final int MOD_REVISION = 21;
    static final int VERSION = 29;
    static final int PREV_CREATE_REVISION = 37;
    static final int PREV_MOD_REVISION = 45;
    static final int PREV_VERSION = 53;
    static final int LEASE = 61;
    static final int PREV_LEASE = 69;
    static final int CHANGE_FIXED_LENGTH = 77;

    private ExcerptLayout()
    {
    }

    /**
     * CRC32C of {@code [CRC_OFFSET + 4, length)} of an excerpt held in {@code buffer}; no allocation
     * (CRC32C reads a direct ByteBuffer through an intrinsic).
     */
    static int crc(final CRC32C crc, final ExpandableDirectByteBuffer buffer, final int length)
    {
        final ByteBuffer bytes = buffer.byteBuffer();
        bytes.limit(length).position(CRC_OFFSET + 4);
        crc.reset();
        crc.update(bytes);
        bytes.clear();
        return (int)crc.getValue();
    }
}
