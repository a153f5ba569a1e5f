package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.kv.Keys;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random adds, removes and routes of every kind against a brute-force model of the registrations.
 */
class WatchRoutesModelTest
{
    // Bytes on both sides of the signed/unsigned boundary, so a signed comparison would be caught.
    private static final byte[] ALPHABET = WatchRoutesTest.bytes(0x00, 0x01, 0x61, 0x7F, 0x80, 0xFE, 0xFF);
    private static final int OPERATIONS = 6_000;
    private static final int WATCHERS = 40;

    @Test
    void randomOperationsMatchBruteForceForFixedSeeds()
    {
        for (long seed = 1; seed <= 3; seed++)
        {
            runModel(seed);
        }
    }

    @Test
    void randomOperationsMatchBruteForceForAFreshSeed()
    {
        runModel(System.nanoTime());
    }

    private static void runModel(final long seed)
    {
        final Random random = new Random(seed);
        final WatchRoutes<Watcher> routes = new WatchRoutes<>();
        final List<Registration> model = new ArrayList<>();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        final List<Watcher> actual = new ArrayList<>();

        for (int op = 0; op < OPERATIONS; op++)
        {
            final String where = "seed " + seed + ", operation " + op;
            final int choice = random.nextInt(10);
            if (choice < 5)
            {
                final Registration added = randomRegistration(random);
                added.addTo(routes);
                model.add(added);
            }
            else if (choice < 8)
            {
                final Registration removed = !model.isEmpty() && random.nextInt(4) != 0 ?
                    model.get(random.nextInt(model.size())) : randomRegistration(random);
                final boolean expected = model.remove(removed);
                assertEquals(expected, removed.removeFrom(routes), where + ", remove " + removed);
            }
            else
            {
                final byte[] key = randomKey(random, 4);
                buffer.putBytes(0, key);
                actual.clear();
                final int count = routes.route(buffer, 0, key.length, actual::add);

                final List<Watcher> expected = new ArrayList<>();
                for (final Registration registration : model)
                {
                    if (registration.contains(key))
                    {
                        expected.add(registration.watcher);
                    }
                }
                expected.sort(Comparator.comparingInt(Watcher::id));
                actual.sort(Comparator.comparingInt(Watcher::id));
                assertEquals(expected, actual, where + ", route " + Arrays.toString(key));
                assertEquals(expected.size(), count, where);
            }
            assertEquals(model.size(), routes.size(), where);
        }
    }

    private static Registration randomRegistration(final Random random)
    {
        final Watcher watcher = new Watcher(random.nextInt(WATCHERS));
        final int kind = random.nextInt(10);
        if (kind == 0)
        {
            return new Registration(Kind.ALL, null, null, watcher);
        }
        if (kind < 5)
        {
            return new Registration(Kind.KEY, randomKey(random, 3), null, watcher);
        }

        final byte[] a = randomKey(random, 3);
        if (kind == 5)
        {
            return new Registration(Kind.RANGE, a, null, watcher);
        }
        if (kind == 6)
        {
            return new Registration(Kind.RANGE, a, Keys.prefixEnd(a), watcher);
        }
        final byte[] b = randomKey(random, 3);
        final int cmp = Arrays.compareUnsigned(a, b);
        if (0 == cmp)
        {
            return new Registration(Kind.RANGE, a, null, watcher);
        }
        final byte[] from = cmp < 0 ? a : b;
        final byte[] to = cmp < 0 ? b : a;
        return new Registration(Kind.RANGE, from, to, watcher);
    }

    private static byte[] randomKey(final Random random, final int maxLength)
    {
        final byte[] key = new byte[random.nextInt(maxLength + 1)];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return key;
    }

    /**
     * A watcher whose hash code collides with others', so removal must rely on equality.
     */
    private record Watcher(int id)
    {
        @Override
        public int hashCode()
        {
            return id % 3;
        }
    }

    private enum Kind
    {
        KEY, RANGE, ALL
    }

    private static final class Registration
    {
        final Kind kind;
        final byte[] from;
        final byte[] to;
        final Watcher watcher;

        Registration(final Kind kind, final byte[] from, final byte[] to, final Watcher watcher)
        {
            this.kind = kind;
            this.from = from;
            this.to = to;
            this.watcher = watcher;
        }

        void addTo(final WatchRoutes<Watcher> routes)
        {
            switch (kind)
            {
                case KEY -> routes.addKey(from, watcher);
                case RANGE -> routes.addRange(from, to, watcher);
                default -> routes.addAll(watcher);
            }
        }

        boolean removeFrom(final WatchRoutes<Watcher> routes)
        {
            return switch (kind)
            {
                case KEY -> routes.removeKey(from, watcher);
                case RANGE -> routes.removeRange(from, to, watcher);
                default -> routes.removeAll(watcher);
            };
        }

        boolean contains(final byte[] key)
        {
            return switch (kind)
            {
                case KEY -> Arrays.equals(from, key);
                case RANGE -> Arrays.compareUnsigned(from, key) <= 0 &&
                    (null == to || Arrays.compareUnsigned(key, to) < 0);
                default -> true;
            };
        }

        @Override
        public boolean equals(final Object other)
        {
            if (!(other instanceof Registration))
            {
                return false;
            }
            final Registration that = (Registration)other;
            return kind == that.kind && watcher.equals(that.watcher) &&
                Arrays.equals(from, that.from) && Arrays.equals(to, that.to);
        }

        @Override
        public int hashCode()
        {
            return 31 * (31 * kind.hashCode() + watcher.id()) + Arrays.hashCode(from);
        }

        @Override
        public String toString()
        {
            return kind + " " + Arrays.toString(from) + ".." + Arrays.toString(to) + " -> " + watcher;
        }
    }
}
