package io.ringwatch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.engine.watch.Watcher;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dispatcher's routes (exact keys, prefixes by length, the interval treap for other ranges,
 * "all") against a reference: watchers of random ranges over keys of a small alphabet that
 * includes 0x00 and 0xFF (prefixes ending in 0xFF, ranges ending exactly at a written key, open
 * ranges, overlapping ranges), some cancelled and others added half way. Each watcher gets exactly
 * the writes its range contains from its start revision, in order; a cancelled one a prefix of them.
 */
class WatchRoutingProbeTest
{
    private static final byte[] ALPHABET = {0x00, 0x01, 'a', (byte)0xFE, (byte)0xFF};

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void everyWatcherGetsExactlyTheWritesItsRangeHolds(final int dispatchers)
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final List<byte[]> writtenKeys = new ArrayList<>();
        final List<Long> writtenRevisions = new ArrayList<>();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder().dispatcherThreads(dispatchers).build()))
        {
            final List<Probe> probes = new ArrayList<>();
            for (int i = 0; i < 80; i++)
            {
                probes.add(probe(engine, random));
            }
            final int writes = 4_000;
            for (int i = 0; i < writes; i++)
            {
                final byte[] key = randomKey(random);
                writtenKeys.add(key);
                writtenRevisions.add(engine.put(key, ("v" + i).getBytes()).revision());
                if (i == writes / 2)
                {
                    for (int c = 0; c < 25; c++)
                    {
                        probes.get(random.nextInt(probes.size())).cancel();
                    }
                    for (int n = 0; n < 40; n++)
                    {
                        probes.add(probe(engine, random));
                    }
                }
            }
            final long last = engine.currentRevision();
            for (final Probe probe : probes)
            {
                final List<String> expected = new ArrayList<>();
                for (int i = 0; i < writtenKeys.size(); i++)
                {
                    if (writtenRevisions.get(i) >= probe.watcher.startRevision() && probe.contains(writtenKeys.get(i)))
                    {
                        expected.add(writtenRevisions.get(i) + " " + HexFormat.of().formatHex(writtenKeys.get(i)));
                    }
                }
                final String where = "seed " + seed + ", " + describe(probe.range) + " from " + probe.watcher.startRevision();
                if (probe.cancelled)
                {
                    final List<String> got = strings(probe.listener.events());
                    assertTrue(got.size() <= expected.size(), where);
                    assertEquals(expected.subList(0, got.size()), got, where);
                }
                else
                {
                    RecordingListener.await(() -> probe.listener.events().size() >= expected.size(), where + ": " + expected.size() + " events");
                    probe.watcher.requestProgress();
                    probe.listener.awaitProgressAtLeast(last);
                    assertEquals(expected, strings(probe.listener.events()), where);
                    assertNull(probe.listener.cancellation(), where);
                }
            }
        }
    }

    private static List<String> strings(final List<Event> events)
    {
        final List<String> strings = new ArrayList<>();
        for (final Event event : events)
        {
            strings.add(event.revision() + " " + HexFormat.of().formatHex(event.kv().key()));
        }
        return strings;
    }

    private static byte[] randomKey(final Random random)
    {
        final byte[] key = new byte[1 + random.nextInt(3)];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return key;
    }

    private static Probe probe(final RingWatch engine, final Random random)
    {
        final int kind = random.nextInt(6);
        if (kind == 1 || kind == 2)
        {
            final byte[] key = randomKey(random);
            final byte[] prefix = Arrays.copyOf(key, Math.min(key.length, 1 + random.nextInt(2)));
            return new Probe(engine, KeyRange.prefix(prefix), prefix);
        }
        return new Probe(engine, randomRange(kind, random), null);
    }

    private static KeyRange randomRange(final int kind, final Random random)
    {
        switch (kind)
        {
            case 0:
                return KeyRange.key(randomKey(random));
            case 3:
                return KeyRange.from(randomKey(random));
            case 4:
                return KeyRange.all();
            default:
                byte[] from = randomKey(random);
                byte[] to = randomKey(random);
                while (Arrays.compareUnsigned(from, to) == 0)
                {
                    to = randomKey(random);
                }
                if (Arrays.compareUnsigned(from, to) > 0)
                {
                    final byte[] swap = from;
                    from = to;
                    to = swap;
                }
                return KeyRange.range(from, to);
        }
    }

    private static String describe(final KeyRange range)
    {
        return "[" + HexFormat.of().formatHex(range.fromKey()) + ", " +
            (range.toKey() == null ? "null" : HexFormat.of().formatHex(range.toKey())) + ")" + (range.isSingleKey() ? " key" : "");
    }

    /** One watcher of a range and what it received. */
    private static final class Probe
    {
        private final KeyRange range;
        private final byte[] prefix;
        private final RecordingListener listener = new RecordingListener();
        private final Watcher watcher;
        private boolean cancelled;

        Probe(final RingWatch engine, final KeyRange range, final byte[] prefix)
        {
            this.range = range;
            this.prefix = prefix;
            this.watcher = engine.watch(WatchRequest.of(range), listener);
        }

        /** The reference, apart from the engine's own: a prefix is a prefix, a range compares unsigned. */
        boolean contains(final byte[] key)
        {
            if (range.isSingleKey())
            {
                return Arrays.equals(range.fromKey(), key);
            }
            if (prefix != null)
            {
                return key.length >= prefix.length && Arrays.equals(prefix, 0, prefix.length, key, 0, prefix.length);
            }
            return Arrays.compareUnsigned(range.fromKey(), key) <= 0 && (range.toKey() == null || Arrays.compareUnsigned(key, range.toKey()) < 0);
        }

        void cancel()
        {
            watcher.cancel();
            cancelled = true;
        }
    }
}
