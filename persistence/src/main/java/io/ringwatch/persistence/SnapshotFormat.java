package io.ringwatch.persistence;

/**
 * The snapshot file layout, little-endian:
 * <pre>
 * header: int magic "RWSN", int format version, long snapshot revision
 * entry:  int keyLen, int valueLen, long createRevision, long modRevision, long version, long lease, key, value
 *         (format 1, before leases: no lease field)
 * end:    int -1, long entry count, int CRC32C of every byte before it
 * </pre>
 * Package-private constants.
 */
final class SnapshotFormat
{
    static final int MAGIC = 0x4E535752;
    static final int FORMAT_VERSION = 2;
    static final int HEADER_LENGTH = 16;
    static final int ENTRY_FIXED_LENGTH = 40;
    /** An entry's fixed part in format 1, which had no lease (read as lease 0). */
    static final int ENTRY_FIXED_LENGTH_V1 = 32;
    static final int END_MARKER = -1;
    static final int TRAILER_LENGTH = 16;

    private SnapshotFormat()
    {
    }
}
