package io.ringwatch.engine.kv;

import io.ringwatch.engine.errors.InvalidRequestException;

import java.util.Arrays;

/**
 * One condition of a {@link Txn}: a key's version, create revision, mod revision or value
 * compared with an operand (etcd's Compare). A missing key has version, create revision and mod
 * revision 0, and no value compares true against it. Immutable and thread-safe.
 */
public final class Compare
{
    /** What of the key is compared. */
    public enum Target
    {
        /** Number of puts since creation; 0 when absent. */
        VERSION,
        /** Revision that created the key; 0 when absent. */
        CREATE,
        /** Revision of the last modification; 0 when absent. */
        MOD,
        /** The id of the lease the key is attached to, 0 for none or when absent (etcd's {@code LEASE}). */
        LEASE,
        /** The value bytes, in unsigned byte order. */
        VALUE
    }

    /** How the key's target relates to the operand. */
    public enum Result
    {
        /** Equal. */
        EQUAL,
        /** Not equal. */
        NOT_EQUAL,
        /** Target less than operand. */
        LESS,
        /** Target greater than operand. */
        GREATER;

        /**
         * Whether this result holds for a comparison of the target with the operand. Any thread;
         * allocates nothing.
         *
         * @param comparison negative, zero or positive as the target is less than, equal to or
         *                   greater than the operand (what a {@link java.util.Comparator} returns).
         * @return true when the relation this result names holds.
         */
        public boolean holds(final int comparison)
        {
            switch (this)
            {
                case EQUAL:
                    return comparison == 0;
                case NOT_EQUAL:
                    return comparison != 0;
                case LESS:
                    return comparison < 0;
                default:
                    return comparison > 0;
            }
        }
    }

    private final byte[] key;
    private final KeyRange range;
    private final Target target;
    private final Result result;
    private final long number;
    private final byte[] bytes;

    private Compare(final byte[] key, final KeyRange range, final Target target, final Result result, final long number,
        final byte[] bytes)
    {
        this.key = key;
        this.range = range;
        this.target = target;
        this.result = result;
        this.number = number;
        this.bytes = bytes;
    }

    /**
     * @param key    the key.
     * @param target version, create or mod revision (not VALUE).
     * @param result the relation.
     * @param operand the number to compare with; not negative, but for a lease id (etcd grants
     *                negative ones).
     * @return the condition.
     * @throws InvalidRequestException for a bad key, a VALUE target or a negative operand of a
     *                                 version or revision.
     */
    public static Compare number(final byte[] key, final Target target, final Result result, final long operand)
    {
        if (target == Target.VALUE)
        {
            throw new InvalidRequestException("a value comparison takes bytes, not a number");
        }
        if (operand < 0 && target != Target.LEASE)
        {
            throw new InvalidRequestException("comparison operand must not be negative: " + operand);
        }
        return new Compare(KeyRange.key(key).fromKey(), null, target, requireResult(result), operand, null);
    }

    /**
     * @param key             the key.
     * @param expectedRevision the expected mod revision; 0 means "the key is absent".
     * @return mod_revision(key) == expectedRevision, the optimistic-concurrency check.
     */
    public static Compare modRevisionIs(final byte[] key, final long expectedRevision)
    {
        return number(key, Target.MOD, Result.EQUAL, expectedRevision);
    }

    /**
     * @param key     the key.
     * @param result  the relation.
     * @param operand the bytes to compare the value with.
     * @return the value condition.
     * @throws InvalidRequestException for a bad key or a null operand.
     */
    public static Compare value(final byte[] key, final Result result, final byte[] operand)
    {
        if (operand == null)
        {
            throw new InvalidRequestException("value operand must not be null");
        }
        return new Compare(KeyRange.key(key).fromKey(), null, Target.VALUE, requireResult(result), 0, operand.clone());
    }

    /**
     * The same condition over every key of a range (etcd's {@code range_end} in a compare): it
     * holds when it holds for each key the range holds, and, when the range holds none, as it
     * would for one absent key (a value comparison then fails), as etcd evaluates it.
     *
     * @param keys the keys to compare; they replace this condition's key.
     * @return the condition over the range.
     * @throws InvalidRequestException if the range is null.
     */
    public Compare over(final KeyRange keys)
    {
        if (keys == null)
        {
            throw new InvalidRequestException("compare range must not be null");
        }
        return new Compare(keys.fromKey(), keys.isSingleKey() ? null : keys, target, result, number, bytes);
    }

    /**
     * @return the range compared, or null when the condition is on one key ({@link #key()}).
     */
    public KeyRange range()
    {
        return range;
    }

    /**
     * @return what is compared.
     */
    public Target target()
    {
        return target;
    }

    /**
     * Evaluates this condition against a key's current state.
     *
     * @param present        whether the key exists.
     * @param version        its version (ignored when absent).
     * @param createRevision its create revision (ignored when absent).
     * @param modRevision    its mod revision (ignored when absent).
     * @param value          its value (ignored when absent).
     * @return whether the condition holds.
     */
    public boolean test(final boolean present, final long version, final long createRevision, final long modRevision, final byte[] value)
    {
        return test(present, version, createRevision, modRevision, 0, value);
    }

    /**
     * Evaluates this condition against a key's current state, its lease included.
     *
     * @param present        whether the key exists.
     * @param version        its version (ignored when absent).
     * @param createRevision its create revision (ignored when absent).
     * @param modRevision    its mod revision (ignored when absent).
     * @param lease          its lease id, 0 for none (ignored when absent).
     * @param value          its value (ignored when absent).
     * @return whether the condition holds.
     */
    public boolean test(
        final boolean present, final long version, final long createRevision, final long modRevision, final long lease,
        final byte[] value)
    {
        final int cmp;
        switch (target)
        {
            case VERSION:
                cmp = Long.compare(present ? version : 0, number);
                break;
            case CREATE:
                cmp = Long.compare(present ? createRevision : 0, number);
                break;
            case MOD:
                cmp = Long.compare(present ? modRevision : 0, number);
                break;
            case LEASE:
                cmp = Long.compare(present ? lease : 0, number);
                break;
            default:
                if (!present)
                {
                    return false;
                }
                cmp = Arrays.compareUnsigned(value, bytes);
                break;
        }
        return result.holds(cmp);
    }

    /**
     * @return the key compared, or the first key of the range (shared array: do not modify).
     */
    public byte[] key()
    {
        return key;
    }

    @Override
    public String toString()
    {
        return target + "(" + (range != null ? range.toString() : new String(key, java.nio.charset.StandardCharsets.UTF_8)) +
            ") " + result + " " +
            (target == Target.VALUE ? Arrays.toString(bytes) : Long.toString(number));
    }

    private static Result requireResult(final Result result)
    {
        if (result == null)
        {
            throw new InvalidRequestException("comparison result must not be null");
        }
        return result;
    }
}
