package io.ringwatch.ringbuffer;

/**
 * Byte layout of one fixed-size event slot in a generation's slot buffer. The event's key,
 * value and previous value lie contiguously in the data ring at {@link #DATA_POSITION}.
 */
final class SlotLayout
{
    static final int SEQUENCE = 0;
    static final int REVISION = 8;
    static final int CREATE_REVISION = 16;
    static final int VERSION = 24;
    static final int PREV_CREATE_REVISION = 32;
    static final int PREV_MOD_REVISION = 40;
    static final int PREV_VERSION = 48;
    static final int TIMESTAMP = 56;
    static final int DATA_POSITION = 64;
    static final int KEY_LENGTH = 72;
    static final int VALUE_LENGTH = 76;
    static final int PREV_VALUE_LENGTH = 80;
    static final int TYPE = 84;
    static final int LEASE = 88;
    static final int PREV_LEASE = 96;
    /** A multiple of 8, so every long of every slot is aligned. */
    static final int SLOT_LENGTH = 104;

    private SlotLayout()
    {
    }
}
