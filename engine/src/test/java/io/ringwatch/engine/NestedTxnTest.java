package io.ringwatch.engine;

import io.ringwatch.engine.errors.DuplicateKeyException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions nested in a transaction's branches (etcd 3.4+): one revision for every write on
 * the chosen path, every condition on the path evaluated against the store before the outermost
 * transaction, results nested as the request was, and etcd's duplicate-key rule across the
 * nesting, refused with a typed error that changes nothing.
 */
class NestedTxnTest
{
    private final RingWatch engine = RingWatch.open();

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void theChosenPathIsAppliedUnderOneRevisionWithItsResultsNestedAsTheRequest()
    {
        engine.put("flag", "on");
        final Txn inner = Txn.of(List.of(valueIs("flag", "on")),
            List.of(Op.put("inner/then", "1"), Op.delete("gone")), List.of(Op.put("inner/else", "1")));
        final Txn outer = Txn.of(List.of(), List.of(Op.put("outer", "1"), Op.txn(inner), Op.put("after", "1")), List.of());

        final TxnResult result = engine.txn(outer);

        assertTrue(result.succeeded());
        assertEquals(2, result.revision(), "one revision for the whole path");
        assertEquals(2, result.results().size(), "the outer branch's own puts");
        assertEquals(1, result.nested().size());
        final TxnResult nested = result.nested().get(0);
        assertTrue(nested.succeeded());
        assertEquals(2, nested.revision());
        assertEquals(2, nested.results().size());
        assertEquals(0, nested.results().get(1).deleted(), "deleting an absent key deletes nothing");
        for (final String key : List.of("outer", "inner/then", "after"))
        {
            assertEquals(2, engine.get(key).map(KeyValue::modRevision).orElse(-1L), key);
        }
        assertTrue(engine.get("inner/else").isEmpty());
    }

    @Test
    void nestedConditionsSeeTheStoreBeforeTheOutermostTransactionNotItsEarlierWrites()
    {
        // The outer branch puts k before the nested compare on k: etcd decides the whole path first.
        final Txn inner = Txn.of(List.of(valueIs("k", "new")), List.of(Op.put("m", "saw-new")), List.of(Op.put("m", "saw-before")));
        engine.txn(Txn.of(List.of(), List.of(Op.put("k", "new"), Op.txn(inner)), List.of()));

        assertEquals("saw-before", text(engine.get("m").orElseThrow()));
    }

    @Test
    void aFailedNestedConditionTakesTheNestedElseBranchAndSaysSo()
    {
        final Txn inner = Txn.of(List.of(valueIs("absent", "x")), List.of(Op.put("a", "then")),
            List.of(Op.put("a", "else").withPrevKv()));
        final TxnResult result = engine.txn(Txn.of(List.of(), List.of(Op.txn(inner)), List.of()));

        assertTrue(result.succeeded());
        assertFalse(result.nested().get(0).succeeded());
        assertEquals("else", text(engine.get("a").orElseThrow()));
        assertEquals(List.of(), result.nested().get(0).results().get(0).prevKvs());
    }

    @Test
    void theSameKeyInANestedThenAndElseIsOneWriteAndAllowed()
    {
        final Txn inner = Txn.of(List.of(valueIs("x", "y")), List.of(Op.put("k", "then")), List.of(Op.put("k", "else")));
        engine.txn(Txn.of(List.of(), List.of(Op.put("other", "1"), Op.txn(inner)), List.of()));

        assertEquals("else", text(engine.get("k").orElseThrow()));
    }

    @Test
    void aKeyPutAtTwoLevelsIsADuplicateAndChangesNothing()
    {
        final Txn inner = Txn.of(List.of(), List.of(Op.put("k", "inner")), List.of());
        assertRefused(Txn.of(List.of(), List.of(Op.put("k", "outer"), Op.txn(inner)), List.of()));
    }

    @Test
    void aKeyPutInTwoSiblingNestedTransactionsIsADuplicateWhateverTheirConditions()
    {
        final Txn first = Txn.of(List.of(valueIs("x", "1")), List.of(Op.put("k", "a")), List.of());
        final Txn second = Txn.of(List.of(valueIs("x", "2")), List.of(), List.of(Op.put("k", "b")));
        assertRefused(Txn.of(List.of(), List.of(Op.txn(first), Op.txn(second)), List.of()));
    }

    @Test
    void aNestedPutOfAKeyAnOuterDeleteHoldsIsADuplicate()
    {
        final Txn inner = Txn.of(List.of(), List.of(), List.of(Op.put("p/k", "v")));
        assertRefused(Txn.of(List.of(), List.of(Op.delete(KeyRange.prefix("p/")), Op.txn(inner)), List.of()));
    }

    @Test
    void anOuterPutOfAKeyANestedDeleteHoldsIsADuplicate()
    {
        final Txn inner = Txn.of(List.of(), List.of(Op.delete(KeyRange.prefix("p/"))), List.of());
        assertRefused(Txn.of(List.of(), List.of(Op.txn(inner), Op.put("p/k", "v")), List.of()));
    }

    @Test
    void anInvalidOperationDeepInTheNestingIsRefusedBeforeAnythingIsApplied()
    {
        final Txn deepest = Txn.of(List.of(), List.of(Op.put(Keys.utf8("k".repeat(100_000)), new byte[1])), List.of());
        final Txn middle = Txn.of(List.of(), List.of(Op.txn(deepest)), List.of());
        assertThrows(InvalidRequestException.class,
            () -> engine.txn(Txn.of(List.of(), List.of(Op.put("a", "1"), Op.txn(middle)), List.of())));
        assertEquals(0, engine.currentRevision());
    }

    @Test
    void aNestedTransactionIsNotAWriteOfItsOwn()
    {
        final Op nested = Op.txn(Txn.of(List.of(), List.of(Op.put("a", "1")), List.of()));

        assertThrows(InvalidRequestException.class, () -> engine.write(nested));
        assertThrows(InvalidRequestException.class, nested::withPrevKv);
        assertThrows(InvalidRequestException.class, () -> Op.txn(null));
        assertEquals(0, engine.currentRevision());
    }

    private void assertRefused(final Txn txn)
    {
        engine.put("seen", "1");
        final long before = engine.currentRevision();

        assertThrows(DuplicateKeyException.class, () -> engine.txn(txn));
        assertEquals(before, engine.currentRevision(), "nothing was written");
        assertTrue(engine.get("k").isEmpty());
    }

    private static Compare valueIs(final String key, final String value)
    {
        return Compare.value(Keys.utf8(key), Compare.Result.EQUAL, Keys.utf8(value));
    }

    private static String text(final KeyValue kv)
    {
        return new String(kv.value(), StandardCharsets.UTF_8);
    }
}
