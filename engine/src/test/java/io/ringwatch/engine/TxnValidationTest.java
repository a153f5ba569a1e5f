package io.ringwatch.engine;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Keys;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction's branches are refused, with the same error an all-pairs check in op order
 * gives, when an op is invalid, a put key repeats, or a delete holds a put key; the check is
 * O(n log n), so a 40,000-op transaction is checked in about the time it takes to build.
 */
class TxnValidationTest
{
    private static final int MAX_KEY_BYTES = 3;
    private static final int MAX_VALUE_BYTES = 2;

    private final RingWatch engine = RingWatch.open(RingWatchConfig.builder()
        .maxKeyBytes(MAX_KEY_BYTES).maxValueBytes(MAX_VALUE_BYTES).build());

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void aFortyThousandOpTransactionWithALateDuplicatePutIsRefused()
    {
        try (RingWatch big = RingWatch.open(RingWatchConfig.builder().build()))
        {
            final List<Op> ops = new ArrayList<>();
            for (int i = 0; i < 39_999; i++)
            {
                ops.add(Op.put(String.format("k%05d", i), "v"));
            }
            ops.add(Op.put("k00017", "again"));
            final InvalidRequestException refused = assertThrows(InvalidRequestException.class,
                () -> big.txn(Txn.of(List.of(), ops, List.of())));
            assertEquals("duplicate key given in transaction: " + ops.get(39_999), refused.getMessage());
            assertEquals(0, big.currentRevision(), "nothing was written");

            ops.set(39_999, Op.delete(KeyRange.prefix("k0001")));
            final InvalidRequestException deletes = assertThrows(InvalidRequestException.class,
                () -> big.txn(Txn.of(List.of(), ops, List.of())));
            assertTrue(deletes.getMessage().startsWith("transaction deletes a key it also puts"), deletes.getMessage());

            ops.set(39_999, Op.delete(KeyRange.prefix("x")));
            big.txn(Txn.of(List.of(), ops, List.of()));
            assertEquals(1, big.currentRevision(), "the valid transaction was applied");
        }
    }

    @Test
    void randomTransactionsGetTheErrorThePairwiseCheckGives()
    {
        final long seed = System.nanoTime();
        System.out.println("TxnValidationTest seed " + seed);
        final SplittableRandom random = new SplittableRandom(seed);
        int refused = 0;
        for (int round = 0; round < 3_000; round++)
        {
            final List<Op> then = randomOps(random);
            final List<Op> orElse = random.nextInt(4) == 0 ? randomOps(random) : List.of();
            final String expected = pairwiseError(then) != null ? pairwiseError(then) : pairwiseError(orElse);
            String actual = null;
            try
            {
                engine.txn(Txn.of(List.of(), then, orElse));
            }
            catch (final InvalidRequestException e)
            {
                actual = e.getMessage();
                refused++;
            }
            assertEquals(expected, actual, "seed " + seed + ", round " + round + ": " + then + " / " + orElse);
        }
        assertTrue(refused > 300 && refused < 2_700, "the generator exercises both outcomes: " + refused + " refused, seed " + seed);
    }

    private static List<Op> randomOps(final SplittableRandom random)
    {
        final int count = random.nextInt(12);
        final List<Op> ops = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            if (random.nextInt(3) > 0)
            {
                final byte[] value = new byte[random.nextInt(30) == 0 ? MAX_VALUE_BYTES + 1 : random.nextInt(MAX_VALUE_BYTES + 1)];
                ops.add(Op.put(randomKey(random), value));
            }
            else
            {
                ops.add(Op.delete(randomRange(random)));
            }
        }
        return ops;
    }

    private static KeyRange randomRange(final SplittableRandom random)
    {
        switch (random.nextInt(5))
        {
            case 0:
                return KeyRange.key(randomKey(random));
            case 1:
                return KeyRange.prefix(randomKey(random));
            case 2:
                final byte[] a = randomKey(random);
                final byte[] b = randomKey(random);
                final int order = Keys.compare(a, b);
                return order == 0 ? KeyRange.key(a) : order < 0 ? KeyRange.range(a, b) : KeyRange.range(b, a);
            case 3:
                return KeyRange.from(randomKey(random));
            default:
                return random.nextInt(8) == 0 ? KeyRange.all() : KeyRange.key(randomKey(random));
        }
    }

    /** Keys of one to three bytes from a small alphabet, so repeats and overlaps are common; now and then one too long. */
    private static byte[] randomKey(final SplittableRandom random)
    {
        final byte[] key = new byte[random.nextInt(40) == 0 ? MAX_KEY_BYTES + 1 : 1 + random.nextInt(MAX_KEY_BYTES)];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(random.nextInt(8) == 0 ? 0xF0 : 'a' + random.nextInt(3));
        }
        return key;
    }

    /** The oracle: the all-pairs check the engine used to run, in op order. */
    private static String pairwiseError(final List<Op> ops)
    {
        final List<byte[]> putKeys = new ArrayList<>();
        for (final Op op : ops)
        {
            final String invalid = invalid(op);
            if (invalid != null)
            {
                return invalid;
            }
            if (op.kind() == Op.Kind.PUT)
            {
                for (final byte[] other : putKeys)
                {
                    if (Keys.compare(other, op.key()) == 0)
                    {
                        return "duplicate key given in transaction: " + op;
                    }
                }
                putKeys.add(op.key());
            }
        }
        for (final Op op : ops)
        {
            if (op.kind() == Op.Kind.DELETE)
            {
                for (final byte[] key : putKeys)
                {
                    if (op.range().contains(key))
                    {
                        return "transaction deletes a key it also puts: " + op;
                    }
                }
            }
        }
        return null;
    }

    private static String invalid(final Op op)
    {
        final KeyRange range = op.range();
        final int fromLength = range.fromKey().length;
        if (fromLength > MAX_KEY_BYTES)
        {
            return "key of " + fromLength + " bytes exceeds the limit of " + MAX_KEY_BYTES;
        }
        if (!range.isSingleKey() && range.toKey() != null && range.toKey().length > MAX_KEY_BYTES)
        {
            return "key of " + range.toKey().length + " bytes exceeds the limit of " + MAX_KEY_BYTES;
        }
        if (op.kind() == Op.Kind.PUT && op.value().length > MAX_VALUE_BYTES)
        {
            return "value of " + op.value().length + " bytes exceeds the limit of " + MAX_VALUE_BYTES;
        }
        return null;
    }
}
