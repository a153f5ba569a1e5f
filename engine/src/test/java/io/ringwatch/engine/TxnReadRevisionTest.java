package io.ringwatch.engine;

import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * etcd's rule for the revisions a transaction's reads name ({@link Op#readAt}), at every level of
 * nesting: the writer chooses the whole path first, then refuses the whole transaction, writing
 * nothing and taking no revision, when a read on that path is after the revision before the
 * transaction or before the store's first revision (its compaction point, -1 when never
 * compacted); reads on branches not taken do not count.
 */
class TxnReadRevisionTest
{
    private final RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void aFutureReadTwoLevelsDownTheChosenPathRefusesTheWholeTransactionAndWritesNothing()
    {
        engine.put("flag", "on");
        final long current = engine.put("other", "1").revision();
        final Txn deepest = Txn.of(List.of(), List.of(Op.put("c", "1"), Op.readAt(current + 1)), List.of());
        final Txn middle = Txn.of(List.of(valueIs("flag", "on")), List.of(Op.put("b", "1"), Op.txn(deepest)),
            List.of(Op.put("b", "else")));
        final Txn outer = Txn.of(List.of(), List.of(Op.put("a", "1"), Op.txn(middle)), List.of());

        final FutureRevisionException refused = assertThrows(FutureRevisionException.class, () -> engine.txn(outer));

        assertEquals(current + 1, refused.requestedRevision());
        assertEquals(current, refused.currentRevision());
        assertNothingWritten(current, "a", "b", "c");
        assertEquals(current + 1, engine.put("after", "1").revision(), "the writer goes on, no revision was taken");
    }

    @Test
    void aCompactedReadInANestedElseBranchThreeLevelsDownRefusesTheTransactionAsCompacted()
    {
        final long old = engine.put("k", "1").revision();
        final long compactAt = engine.put("k", "2").revision();
        engine.compact(compactAt);
        final Txn third = Txn.of(List.of(valueIs("k", "absent")), List.of(Op.put("t", "then")),
            List.of(Op.put("t", "else"), Op.readAt(old)));
        final Txn second = Txn.of(List.of(valueIs("k", "2")), List.of(Op.txn(third)), List.of());
        final Txn first = Txn.of(List.of(valueIs("k", "nope")), List.of(), List.of(Op.put("s", "1"), Op.txn(second)));
        final Txn outer = Txn.of(List.of(), List.of(Op.txn(first), Op.put("r", "1")), List.of());

        final CompactedException refused = assertThrows(CompactedException.class, () -> engine.txn(outer));

        assertEquals(old, refused.requestedRevision());
        assertEquals(compactAt, refused.compactRevision());
        assertNothingWritten(compactAt, "t", "s", "r");
    }

    @Test
    void readsInBoundsOnEveryLevelLetTheTransactionApplyWithResultsOnlyForItsWrites()
    {
        engine.put("k", "1");
        final long compactAt = engine.put("k", "2").revision();
        engine.compact(compactAt);
        final long current = engine.put("k", "3").revision();
        final Txn inner = Txn.of(List.of(valueIs("k", "3")),
            List.of(Op.readAt(compactAt), Op.put("in", "1"), Op.readAt(current), Op.readAt(0)), List.of());
        final Txn outer = Txn.of(List.of(), List.of(Op.readAt(current), Op.put("out", "1"), Op.txn(inner)), List.of());

        final TxnResult result = engine.txn(outer);

        assertTrue(result.succeeded());
        assertEquals(current + 1, result.revision());
        assertEquals(1, result.results().size(), "reads have no result of their own");
        assertEquals(1, result.nested().get(0).results().size());
        assertEquals(current + 1, engine.get("in").orElseThrow().modRevision());
        assertEquals(current + 1, engine.get("out").orElseThrow().modRevision());
    }

    @Test
    void badReadsOnBranchesNotTakenRefuseNothing()
    {
        final long current = engine.put("k", "1").revision();
        final Txn inner = Txn.of(List.of(valueIs("k", "other")), List.of(Op.readAt(current + 100), Op.put("x", "then")),
            List.of(Op.put("x", "else")));
        final Txn outer = Txn.of(List.of(valueIs("k", "1")), List.of(Op.txn(inner)), List.of(Op.readAt(-5), Op.put("y", "1")));

        final TxnResult result = engine.txn(outer);

        assertTrue(result.succeeded());
        assertFalse(result.nested().get(0).succeeded());
        assertEquals("else", new String(engine.get("x").orElseThrow().value(), StandardCharsets.UTF_8));
        assertTrue(engine.get("y").isEmpty());
        assertEquals(current + 1, engine.currentRevision());
    }

    @Test
    void theTransactionsOwnRevisionIsAFutureOneToItsReads()
    {
        final long current = engine.put("k", "1").revision();
        final Txn ownRevision = Txn.of(List.of(), List.of(Op.put("n", "1"), Op.txn(Txn.of(List.of(),
            List.of(Op.readAt(current + 1)), List.of()))), List.of());

        assertThrows(FutureRevisionException.class, () -> engine.txn(ownRevision));

        assertNothingWritten(current, "n");
    }

    @Test
    void negativeRevisionsFollowEtcdsFirstRevisionMinusOneBeforeAnyCompactionAndTheCompactionPointAfter()
    {
        final long current = engine.put("k", "1").revision();
        assertTrue(engine.txn(nestedRead(-1, "a")).succeeded(), "-1 reads the current revision before any compaction");
        final CompactedException minusTwo = assertThrows(CompactedException.class, () -> engine.txn(nestedRead(-2, "b")));
        assertEquals(0, minusTwo.compactRevision());

        engine.compact(current);
        final long before = engine.currentRevision();
        assertThrows(CompactedException.class, () -> engine.txn(nestedRead(-1, "c")));

        assertNothingWritten(before, "b", "c");
    }

    @Test
    void aCompactionAtZeroMovesEtcdsFirstRevisionFromMinusOneToZero()
    {
        engine.put("k", "1");
        assertEquals(-1, engine.compactMark());
        engine.compact(0);
        assertEquals(0, engine.compactMark());
        assertEquals(0, engine.compactRevision(), "nothing is dropped");
        final long before = engine.currentRevision();
        final CompactedException minusOne = assertThrows(CompactedException.class, () -> engine.txn(nestedRead(-1, "z")));
        assertEquals(0, minusOne.compactRevision());
        assertThrows(CompactedException.class, () -> engine.compact(0), "taken once, as etcd");
        assertNothingWritten(before, "z");
        assertTrue(engine.txn(nestedRead(1, "y")).succeeded(), "revision 1 is still there");
    }

    @Test
    void theFirstBadReadInThePathsOrderDecidesTheError()
    {
        final long old = engine.put("k", "1").revision();
        final long current = engine.put("k", "2").revision();
        engine.compact(current);
        final Op future = Op.readAt(current + 1);
        final Op compacted = Op.readAt(old);
        final Op nestedCompacted = Op.txn(Txn.of(List.of(), List.of(compacted), List.of()));
        final Op nestedFuture = Op.txn(Txn.of(List.of(), List.of(future), List.of()));

        assertThrows(CompactedException.class, () -> engine.txn(Txn.of(List.of(), List.of(nestedCompacted, future), List.of())));
        assertThrows(FutureRevisionException.class, () -> engine.txn(Txn.of(List.of(), List.of(nestedFuture, compacted), List.of())));
        assertThrows(FutureRevisionException.class, () -> engine.txn(Txn.of(List.of(), List.of(future, nestedCompacted), List.of())));
        assertEquals(current, engine.currentRevision());
    }

    @Test
    void aFutureReadRefusesAnAsynchronousTransactionToo()
    {
        final long current = engine.put("k", "1").revision();
        final Txn txn = Txn.of(List.of(), List.of(Op.put("z", "1"), Op.txn(Txn.of(List.of(), List.of(Op.readAt(current + 5)),
            List.of()))), List.of());

        final Throwable refused = assertThrows(ExecutionException.class,
            () -> engine.txnAsync(txn).get()).getCause();

        assertTrue(refused instanceof FutureRevisionException, refused.toString());
        assertNothingWritten(current, "z");
    }

    @Test
    void aReadIsNoWriteOfItsOwnAndTakesNoPrevKv()
    {
        assertThrows(InvalidRequestException.class, () -> engine.write(Op.readAt(0)));
        assertThrows(InvalidRequestException.class, () -> Op.readAt(1).withPrevKv());
        assertThrows(InvalidRequestException.class, () -> Op.readAt(1).withLease(7));
        assertEquals(0, engine.currentRevision());
    }

    /** A transaction whose then branch nests one that reads at {@code revision} and puts {@code key}. */
    private static Txn nestedRead(final long revision, final String key)
    {
        return Txn.of(List.of(), List.of(Op.txn(Txn.of(List.of(), List.of(Op.readAt(revision), Op.put(key, "1")), List.of()))), List.of());
    }

    private void assertNothingWritten(final long revision, final String... keys)
    {
        assertEquals(revision, engine.currentRevision(), "no revision was taken");
        for (final String key : keys)
        {
            assertTrue(engine.get(key).isEmpty(), key + " was not written");
        }
    }

    private static Compare valueIs(final String key, final String value)
    {
        return Compare.value(Keys.utf8(key), Compare.Result.EQUAL, Keys.utf8(value));
    }
}
