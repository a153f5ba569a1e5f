package io.ringwatch.engine.internal.undo;

import io.ringwatch.engine.errors.ReadBudgetExceededException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.ringbuffer.ChangeRecord;
import io.ringwatch.ringbuffer.EventType;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The undo log on one thread: what the writer keeps for pinned reads, what it skips, what it
 * recycles when reads leave, and a read that needs more than the budget failing while the writer
 * goes on.
 */
class UndoLogTest
{
    private final ChangeRecord changes = new ChangeRecord();

    @Test
    void withNoReadPinnedTheWriterKeepsNothing()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        put(undo, 1, "k", "v1", null, 0);
        put(undo, 2, "k", "v2", "v1", 1);

        assertEquals(0, undo.bytesInUse());
        assertEquals(-1, undo.recordedRevision());
    }

    @Test
    void aPinnedReadGetsEachKeysStateAtItsPinOnceAndCreatedKeysAsAbsent()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        put(undo, 1, "k", "v1", null, 0);
        final int slot = undo.pin();
        undo.pinAt(slot, 1);
        put(undo, 2, "k", "v2", "v1", 1);
        put(undo, 3, "k", "v3", "v2", 2);
        put(undo, 4, "new", "n1", null, 0);

        assertEquals(List.of("k=v1@1", "new=absent"), readSince(undo, 1, null));
        assertEquals(List.of("new=absent"), readSince(undo, 1, KeyRange.key("new")));
        assertEquals(4, undo.recordedRevision());
        undo.unpin(slot);
    }

    @Test
    void theLastReadLeavingRecyclesEverything()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 0);
        for (int i = 1; i <= 20; i++)
        {
            put(undo, i, "k" + i, "v", null, 0);
        }
        assertTrue(undo.bytesInUse() >= 4 * 256, "20 entries of 64 bytes fill several segments: " + undo.bytesInUse());

        undo.unpin(slot);
        put(undo, 21, "k", "v", null, 0);

        assertEquals(0, undo.bytesInUse());
    }

    @Test
    void aReadNeedingMoreThanTheBudgetFailsNamingItAndTheWriterGoesOn()
    {
        final UndoLog undo = new UndoLog(512, 64, 256);
        final int early = undo.pin();
        undo.pinAt(early, 0);
        for (int i = 1; i <= 20; i++)
        {
            put(undo, i, "k" + i, "v", null, 0);
        }

        final ReadBudgetExceededException e = assertThrows(ReadBudgetExceededException.class, () -> readSince(undo, 0, null));
        assertEquals(512, e.budgetBytes());
        assertTrue(e.getMessage().contains("512 bytes"), e.getMessage());
        undo.unpin(early);

        final int late = undo.pin();
        undo.pinAt(late, 20);
        put(undo, 21, "k1", "v2", "v", 1);
        assertEquals(List.of("k1=v@1"), readSince(undo, 20, null), "a read pinned after the overflow is served");
        undo.unpin(late);
    }

    @Test
    void aReadOfOneRangeGetsNoPreImagesOfKeysOutsideIt()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.scope(slot, KeyRange.prefix("a/"));
        undo.pinAt(slot, 1);
        // The first revision after a pin came is kept whole: the writer learns the pins at its end.
        put(undo, 2, "x", "v2", "v1", 1);
        put(undo, 3, "b/1", "v3", "v1", 1);
        put(undo, 4, "a/1", "v4", "v1", 1);

        assertEquals(List.of("x=v1@1", "a/1=v1@1"), readSince(undo, 1, null));
        undo.unpin(slot);
    }

    @Test
    void keysTheScanHasPassedGetNoPreImagesAndTheRestDo()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 1);
        put(undo, 2, "x", "v2", "v1", 1);
        undo.pass(slot, bytes("m"));
        put(undo, 3, "c", "v3", "v1", 1);
        put(undo, 4, "m", "v4", "v1", 1);
        put(undo, 5, "n", "v5", "v1", 1);
        put(undo, 6, "ma", "v6", null, 0);

        assertEquals(List.of("x=v1@1", "n=v1@1", "ma=absent"), readSince(undo, 1, null));
        undo.unpin(slot);
    }

    @Test
    void aPreImageIsKeptWhenAnyPinnedReadMayNeedIt()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int prefixRead = undo.pin();
        undo.scope(prefixRead, KeyRange.prefix("a/"));
        undo.pinAt(prefixRead, 1);
        final int fullRead = undo.pin();
        undo.pinAt(fullRead, 1);
        put(undo, 2, "x", "v2", "v1", 1);
        undo.pass(prefixRead, bytes("a/5"));
        undo.pass(fullRead, bytes("m"));
        put(undo, 3, "b", "v3", "v1", 1);
        put(undo, 4, "z", "v4", "v1", 1);
        put(undo, 5, "a/3", "v5", "v1", 1);
        put(undo, 6, "a/7", "v6", "v1", 1);

        assertEquals(List.of("x=v1@1", "z=v1@1", "a/7=v1@1"), readSince(undo, 1, null));
        undo.unpin(prefixRead);
        undo.unpin(fullRead);
    }

    @Test
    void aKeyPassedAfterTheWriterLookedIsStillKept()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 1);
        put(undo, 2, "x", "v2", "v1", 1);
        undo.beginRevision();
        // The scan reads past "c" after the writer's look and before its change: it may have read the new value.
        undo.pass(slot, bytes("m"));
        change(undo, 3, "c", "v3", "v1", 1);

        assertEquals(List.of("x=v1@1", "c=v1@1"), readSince(undo, 1, null));
        undo.unpin(slot);
    }

    @Test
    void aReadPinningDuringARevisionMakesTheWriterKeepAllOfIt()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int passedRead = undo.pin();
        undo.pinAt(passedRead, 1);
        put(undo, 2, "x", "v2", "v1", 1);
        undo.pass(passedRead, bytes("m"));
        undo.beginRevision();
        final int newRead = undo.pin();
        change(undo, 3, "c", "v3", "v1", 1);
        undo.pinAt(newRead, 2);

        assertEquals(List.of("c=v1@1"), readSince(undo, 2, null));
        undo.unpin(passedRead);
        undo.unpin(newRead);
    }

    @Test
    void theWriterLooksAtThePassedKeysEverySixteenRevisions()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 1);
        put(undo, 2, "x", "v2", "v1", 1);
        undo.pass(slot, bytes("c"));
        put(undo, 3, "b", "v3", "v1", 1);
        undo.pass(slot, bytes("m"));
        // Looked at revision 3: keys between "c" and "m" are kept (the older look only keeps more) until the next look.
        for (int revision = 4; revision <= 18; revision++)
        {
            put(undo, revision, "d" + revision, "v" + revision, "v1", 1);
        }
        put(undo, 19, "e", "v19", "v1", 1);
        put(undo, 20, "z", "v20", "v1", 1);

        final List<String> kept = readSince(undo, 1, null);
        assertEquals(15, kept.stream().filter(kv -> kv.startsWith("d")).count(), kept.toString());
        assertEquals(List.of("x=v1@1", "z=v1@1"), kept.stream().filter(kv -> !kv.startsWith("d")).toList());
        undo.unpin(slot);
    }

    @Test
    void aScanReportingItsProgressGivesTheWriterEverySegmentItFills()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 0);
        for (int i = 1; i <= 200; i++)
        {
            // The scan has not reached the keys the writer changes ("a" sorts before them), as early in a big read.
            undo.pass(slot, bytes("a"));
            put(undo, i, "k" + i, "v", null, 0);
        }

        assertTrue(undo.bytesInUse() >= 40 * 256, "200 entries of 64 bytes fill 50 segments: " + undo.bytesInUse());
        assertEquals(0, undo.segmentsAllocatedByWriter(), "the reader allocated every segment the writer filled");
        assertEquals(200, readSince(undo, 0, null).size());
        undo.unpin(slot);
    }

    @Test
    void aReadThatReportsNoProgressLeavesTheWriterToAllocate()
    {
        final UndoLog undo = new UndoLog(1 << 20, 64, 256);
        final int slot = undo.pin();
        undo.pinAt(slot, 0);
        for (int i = 1; i <= 20; i++)
        {
            put(undo, i, "k" + i, "v", null, 0);
        }

        assertEquals(5, undo.segmentsAllocatedByWriter(), "20 entries of 64 bytes in segments of 256");
        undo.unpin(slot);
    }

    private void put(final UndoLog undo, final long revision, final String key, final String value, final String prev,
        final long prevModRevision)
    {
        undo.beginRevision();
        change(undo, revision, key, value, prev, prevModRevision);
    }

    private static byte[] bytes(final String key)
    {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** One revision's change, as the writer ends it; {@link #put} looks at the pins before it, as the writer does. */
    private void change(final UndoLog undo, final long revision, final String key, final String value, final String prev,
        final long prevModRevision)
    {
        final byte[] k = key.getBytes(StandardCharsets.UTF_8);
        final byte[] v = value.getBytes(StandardCharsets.UTF_8);
        final byte[] p = prev == null ? new byte[0] : prev.getBytes(StandardCharsets.UTF_8);
        changes.clear();
        changes.add(EventType.PUT, new UnsafeBuffer(k), 0, k.length, new UnsafeBuffer(v), 0, v.length,
            prev == null ? revision : 1, revision, 1, new UnsafeBuffer(p), 0, p.length, 1, prevModRevision, 1);
        undo.onRevision(revision, changes);
    }

    private static List<String> readSince(final UndoLog undo, final long pin, final KeyRange range)
    {
        final List<String> seen = new ArrayList<>();
        undo.readSince(pin, range, new ExpandableArrayBuffer(64),
            (buffer, keyOffset, keyLength, valueOffset, valueLength, createRevision, modRevision, version, lease) ->
            {
                final String key = buffer.getStringWithoutLengthUtf8(keyOffset, keyLength);
                seen.add(key + "=" + (valueLength < 0 ? "absent" :
                    buffer.getStringWithoutLengthUtf8(valueOffset, valueLength) + "@" + modRevision));
            });
        return seen;
    }
}
