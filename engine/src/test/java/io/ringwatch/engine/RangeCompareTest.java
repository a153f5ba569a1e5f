package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction's compare over a key range (etcd's {@code range_end}): it holds when it holds for
 * every key the range holds, and over an empty range as for one absent key, where a value
 * comparison fails.
 */
class RangeCompareTest
{
    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder().maxKeyBytes(8).build());

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void holdsOnlyWhenEveryKeyOfTheRangePasses()
    {
        engine.put("r/a", "1");
        engine.put("r/b", "1");
        engine.put("s", "9");
        final Compare allOnes = Compare.value(Keys.utf8("r/"), Compare.Result.EQUAL, Keys.utf8("1")).over(KeyRange.prefix("r/"));
        assertTrue(holds(allOnes));

        engine.put("r/c", "2");
        assertFalse(holds(allOnes), "one key of the range fails");
        assertTrue(holds(Compare.value(Keys.utf8("r/"), Compare.Result.LESS, Keys.utf8("3")).over(KeyRange.prefix("r/"))));
        assertTrue(holds(Compare.number(Keys.utf8("r/"), Compare.Target.VERSION, Compare.Result.EQUAL, 1)
            .over(KeyRange.range("r/a", "r/c"))), "the end is exclusive");
    }

    @Test
    void anEmptyRangeComparesAsOneAbsentKey()
    {
        engine.put("x", "1");
        final KeyRange empty = KeyRange.prefix("none/");

        assertTrue(holds(Compare.number(Keys.utf8("none/"), Compare.Target.CREATE, Compare.Result.EQUAL, 0).over(empty)));
        assertFalse(holds(Compare.number(Keys.utf8("none/"), Compare.Target.VERSION, Compare.Result.GREATER, 0).over(empty)));
        assertFalse(holds(Compare.value(Keys.utf8("none/"), Compare.Result.NOT_EQUAL, Keys.utf8("z")).over(empty)),
            "a value comparison over no key fails");
    }

    @Test
    void aRangeCompareInsideANestedTransactionSeesTheStoreBeforeTheTransaction()
    {
        engine.put("r/a", "1");
        final Compare untouched = Compare.number(Keys.utf8("r/"), Compare.Target.VERSION, Compare.Result.EQUAL, 1)
            .over(KeyRange.prefix("r/"));
        final Txn inner = Txn.of(List.of(untouched), List.of(Op.put("seen", "before")), List.of(Op.put("seen", "after")));

        engine.txn(Txn.of(List.of(), List.of(Op.put("r/a", "2"), Op.txn(inner)), List.of()));

        assertEquals("before", new String(engine.get("seen").orElseThrow().value(), StandardCharsets.UTF_8));
    }

    @Test
    void aRangeWhoseBoundExceedsTheKeyLimitIsRefusedAndChangesNothing()
    {
        final Compare tooLong = Compare.number(Keys.utf8("a"), Compare.Target.VERSION, Compare.Result.EQUAL, 0)
            .over(KeyRange.range("a", "zzzzzzzzzz"));

        assertThrows(InvalidRequestException.class, () -> engine.txn(Txn.of(List.of(tooLong), List.of(Op.put("k", "v")), List.of())));
        assertEquals(0, engine.currentRevision());
        assertThrows(InvalidRequestException.class, () -> tooLong.over(null));
    }

    private boolean holds(final Compare compare)
    {
        return engine.txn(Txn.of(List.of(compare), List.of(), List.of())).succeeded();
    }
}
