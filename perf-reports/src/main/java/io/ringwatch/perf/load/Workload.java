package io.ringwatch.perf.load;

import java.nio.charset.StandardCharsets;

/**
 * The keys and watchers of a run, laid out so that every write reaches a known number of
 * watchers. The watchers form {@code watchers / fanout} groups; each group has a prefix
 * {@code /g<group>/}, watcher {@code w} watches the prefix of group {@code w % groups}, and key
 * {@code k} lives under the prefix of group {@code k % groups}. So each write is delivered to
 * exactly {@code fanout} watchers. Keys are padded with zeros to {@code keySize} bytes. The last
 * {@code pullWatchers} watchers are pull watchers, the rest push.
 *
 * <p>Immutable after construction (which allocates every key once); thread-safe.
 */
public final class Workload
{
    private final int keySize;
    private final int valueSize;
    private final int watchers;
    private final int fanout;
    private final int pullWatchers;
    private final int groups;
    private final byte[][] keys;

    /**
     * @param keyCount     distinct keys written, round-robin; at least 1.
     * @param keySize      bytes per key; long enough for the group prefix and the key number.
     * @param valueSize    bytes per value; at least {@link ValueCodec#MIN_VALUE_BYTES}.
     * @param watchers     watchers in all; 0 or a multiple of {@code fanout}.
     * @param fanout       watchers each write reaches; at least 1.
     * @param pullWatchers how many of the watchers are pull watchers; 0 to {@code watchers}.
     * @throws IllegalArgumentException for any argument out of range.
     */
    public Workload(
        final int keyCount, final int keySize, final int valueSize,
        final int watchers, final int fanout, final int pullWatchers)
    {
        require(keyCount >= 1, "key count must be at least 1: " + keyCount);
        require(valueSize >= ValueCodec.MIN_VALUE_BYTES,
            "value size must be at least " + ValueCodec.MIN_VALUE_BYTES + " bytes (the intended send time): " + valueSize);
        require(fanout >= 1, "fanout must be at least 1: " + fanout);
        require(watchers >= 0 && watchers % fanout == 0,
            "watchers must be a non-negative multiple of fanout: " + watchers + " watchers, fanout " + fanout);
        require(pullWatchers >= 0 && pullWatchers <= watchers,
            "pull watchers must be between 0 and watchers: " + pullWatchers);
        this.keySize = keySize;
        this.valueSize = valueSize;
        this.watchers = watchers;
        this.fanout = fanout;
        this.pullWatchers = pullWatchers;
        this.groups = Math.max(1, watchers / fanout);
        final int needed = prefixString(groups - 1).length() + Integer.toString(keyCount - 1).length();
        require(keySize >= needed, "key size must be at least " + needed + " bytes for " + keyCount +
            " keys in " + groups + " groups: " + keySize);
        keys = new byte[keyCount][];
        for (int k = 0; k < keyCount; k++)
        {
            keys[k] = keyBytes(k);
        }
    }

    /**
     * @return distinct keys.
     */
    public int keyCount()
    {
        return keys.length;
    }

    /**
     * @return bytes per key.
     */
    public int keySize()
    {
        return keySize;
    }

    /**
     * @return bytes per value.
     */
    public int valueSize()
    {
        return valueSize;
    }

    /**
     * @return watchers in all.
     */
    public int watchers()
    {
        return watchers;
    }

    /**
     * @return watchers each write reaches (0 when there are no watchers).
     */
    public int watchersPerWrite()
    {
        return watchers == 0 ? 0 : fanout;
    }

    /**
     * @return how many watchers are pull watchers.
     */
    public int pullWatchers()
    {
        return pullWatchers;
    }

    /**
     * @return the number of watcher groups (distinct prefixes).
     */
    public int groups()
    {
        return groups;
    }

    /**
     * @param index the key's number, 0 to {@code keyCount - 1}.
     * @return the key's bytes; shared, do not modify.
     */
    public byte[] key(final int index)
    {
        return keys[index];
    }

    /**
     * @param watcher the watcher's number, 0 to {@code watchers - 1}.
     * @return the prefix it watches (allocates).
     */
    public byte[] watcherPrefix(final int watcher)
    {
        return prefixString(watcher % groups).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @param watcher the watcher's number.
     * @return true when it is a pull watcher.
     */
    public boolean isPull(final int watcher)
    {
        return watcher >= watchers - pullWatchers;
    }

    private byte[] keyBytes(final int index)
    {
        final String prefix = prefixString(index % groups);
        final String number = Integer.toString(index);
        return (prefix + "0".repeat(keySize - prefix.length() - number.length()) + number)
            .getBytes(StandardCharsets.US_ASCII);
    }

    private static String prefixString(final int group)
    {
        return "/g" + group + "/";
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
