package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.CompactedException;
import io.ringwatch.engine.errors.FutureRevisionException;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.internal.history.InMemoryJournal;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.kv.Txn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * range at a past revision equals what a read at that revision returned, for every revision the
 * history still holds: the window of an in-memory engine, the journal of a persistent one.
 */
class HistoricalReadTest
{
    private RingWatch engine;

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void everyRevisionTheJournalHoldsReadsBackExactly()
    {
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1))
            .persistence(name -> new InMemoryJournal(1 << 16, false)).build());
        final long seed = System.nanoTime();
        final List<List<KeyValue>> seen = writeRandomly(new Random(seed), 300);

        for (int revision = 1; revision < seen.size(); revision++)
        {
            assertEquals(seen.get(revision), engine.range(KeyRange.all(), 0, revision).kvs(), "seed " + seed + " at " + revision);
            final List<KeyValue> prefixed = seen.get(revision).stream().filter(kv -> kv.keyAsString().startsWith("a")).toList();
            assertEquals(prefixed, engine.range(KeyRange.prefix("a"), 0, revision).kvs(), "seed " + seed + " prefix at " + revision);
        }
    }

    @Test
    void anInMemoryEngineReadsBackWhatItsWindowHoldsAndRefusesOlder()
    {
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(1024, 1024).build());
        final List<List<KeyValue>> seen = writeRandomly(new Random(7), 100);
        for (int revision = 1; revision < seen.size(); revision++)
        {
            assertEquals(seen.get(revision), engine.range(KeyRange.all(), 0, revision).kvs(), "at " + revision);
        }
        final RangeResult limited = engine.range(KeyRange.all(), 2, seen.size() - 2);
        assertEquals(seen.get(seen.size() - 2).subList(0, 2), limited.kvs());
        assertTrue(limited.more());
        assertEquals(seen.size() - 2, limited.revision());

        engine.close();
        engine = RingWatch.open(RingWatchConfig.builder().windowCapacity(16, 16).windowFreshness(Duration.ofNanos(1)).build());
        for (int i = 0; i < 100; i++)
        {
            engine.put("k" + i % 5, "v" + i);
        }
        assertThrows(CompactedException.class, () -> engine.range(KeyRange.all(), 0, 3));
    }

    @Test
    void revisionsOutOfReachAreTypedErrors()
    {
        engine = RingWatch.open(RingWatchConfig.builder().persistence(name -> new InMemoryJournal(1 << 10, false)).build());
        for (int i = 0; i < 10; i++)
        {
            engine.put("k", "v" + i);
        }
        engine.compact(5);
        assertThrows(CompactedException.class, () -> engine.range(KeyRange.all(), 0, 4));
        assertEquals("v4", new String(engine.range(KeyRange.all(), 0, 5).kvs().get(0).value()));
        assertThrows(FutureRevisionException.class, () -> engine.range(KeyRange.all(), 0, 11));
        assertThrows(InvalidRequestException.class, () -> engine.range(KeyRange.all(), 0, -1));
        assertThrows(InvalidRequestException.class, () -> engine.range(null, 0, 5));
    }

    /** Random puts, deletes, range deletes and txns; element r is the state read at revision r. */
    private List<List<KeyValue>> writeRandomly(final Random random, final int writes)
    {
        final List<List<KeyValue>> seen = new ArrayList<>();
        seen.add(List.of());
        for (int i = 0; i < writes; i++)
        {
            final String key = (random.nextBoolean() ? "a" : "b") + random.nextInt(8);
            final int dice = random.nextInt(10);
            if (dice < 6)
            {
                engine.put(key, "v" + i);
            }
            else if (dice < 8)
            {
                engine.delete(KeyRange.key(key.getBytes()));
            }
            else if (dice < 9)
            {
                engine.delete(KeyRange.prefix(key.substring(0, 1) + random.nextInt(3)));
            }
            else
            {
                engine.txn(Txn.of(List.of(), List.of(Op.put(key.getBytes(), ("t" + i).getBytes()), Op.delete(KeyRange.key(key.equals("b0") ? "b1" : "b0"))), List.of()));
            }
            while (seen.size() <= engine.currentRevision())
            {
                seen.add(engine.range(KeyRange.all(), 0).kvs());
            }
        }
        return seen;
    }
}
