package io.ringwatch.engine.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

/**
 * One writer churns keys (puts of varying length, so values are updated in place and relocated,
 * and removes, so nodes are freed and reused) while readers get and scan. Every value encodes the
 * key and the metadata it was written with, so a reader can tell a torn or mismatched copy.
 * Stable keys, written before the readers start and never touched, sit between the churned ones:
 * every full scan must see all of them. The work is bounded by a number of writes, not by time.
 */
class OffHeapIndexConcurrencyTest
{
    private static final long SEED = 0x5EED_1DE4L;
    private static final int CHURNED = 400;
    private static final int STABLE = 100;
    private static final int WRITES = 120_000;
    private static final int READERS = 2;
    private static final int HEADER = Integer.BYTES + 3 * Long.BYTES;

    private final AtomicBoolean writerDone = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    @Test
    void readersOnlyEverSeeConsistentEntriesInStrictOrder() throws InterruptedException
    {
        try (OffHeapIndex index = new OffHeapIndex(8))
        {
            final ExpandableArrayBuffer key = new ExpandableArrayBuffer(16);
            final ExpandableArrayBuffer value = new ExpandableArrayBuffer(1024);
            final IndexEntry prev = new IndexEntry();
            for (int s = 0; s < STABLE; s++)
            {
                final int id = stableId(s);
                index.put(key, 0, key(key, id), value, 0, value(value, id, 1, 1, 1), 1, prev);
            }

            final Thread[] readers = new Thread[READERS];
            for (int r = 0; r < READERS; r++)
            {
                final long readerSeed = SEED + r + 1;
                readers[r] = new Thread(() -> read(index, readerSeed), "index-reader-" + r);
                readers[r].start();
            }
            write(index, key, value, prev);
            for (final Thread reader : readers)
            {
                // a safety net against a hang, never what decides the outcome
                reader.join(TimeUnit.MINUTES.toMillis(2));
                assertFalse(reader.isAlive(), "reader hung, seed=" + SEED);
            }
            assertNull(failure.get(), () -> "seed=" + SEED + ": " + failure.get());
        }
    }

    private void write(
        final OffHeapIndex index, final MutableDirectBuffer key, final MutableDirectBuffer value, final IndexEntry prev)
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final long[] createRevision = new long[CHURNED];
        final long[] version = new long[CHURNED];
        long revision = 1;
        try
        {
            for (int w = 0; w < WRITES && failure.get() == null; w++)
            {
                final int c = random.nextInt(CHURNED);
                final int id = churnedId(c);
                final int keyLength = key(key, id);
                revision++;
                if (random.nextInt(5) == 0)
                {
                    final boolean removed = index.remove(key, 0, keyLength, prev);
                    assertEquals(version[c] != 0, removed, "seed=" + SEED + " write " + w);
                    version[c] = 0;
                }
                else
                {
                    if (version[c] == 0)
                    {
                        createRevision[c] = revision;
                    }
                    version[c]++;
                    final int length = value(value, id, createRevision[c], revision, version[c]);
                    index.put(key, 0, keyLength, value, 0, length, revision, prev);
                    assertEquals(version[c] - 1, prev.found() ? prev.version() : 0, "seed=" + SEED + " write " + w);
                }
            }
        }
        catch (final Throwable t)
        {
            failure.compareAndSet(null, t);
        }
        finally
        {
            writerDone.set(true);
        }
    }

    private void read(final OffHeapIndex index, final long readerSeed)
    {
        final SplittableRandom random = new SplittableRandom(readerSeed);
        final ExpandableArrayBuffer key = new ExpandableArrayBuffer(16);
        final ExpandableArrayBuffer bound = new ExpandableArrayBuffer(16);
        final IndexEntry entry = new IndexEntry();
        final long[] lastModSeen = new long[2 * (CHURNED + STABLE)];
        final ScanCheck scanCheck = new ScanCheck(lastModSeen, readerSeed);
        try
        {
            while (!writerDone.get() && failure.get() == null)
            {
                if (random.nextBoolean())
                {
                    final boolean stable = random.nextInt(4) == 0;
                    final int id = stable ? stableId(random.nextInt(STABLE)) : churnedId(random.nextInt(CHURNED));
                    final boolean found = index.get(key, 0, key(key, id), entry);
                    if (stable && !found)
                    {
                        throw new AssertionError("stable key " + id + " not found, seed=" + readerSeed);
                    }
                    if (found)
                    {
                        checkEntry(entry, id, lastModSeen, readerSeed);
                    }
                }
                else if (random.nextBoolean())
                {
                    scanCheck.reset(0);
                    index.scan(null, 0, 0, null, 0, 0, 0, scanCheck);
                    if (scanCheck.stableSeen != STABLE)
                    {
                        throw new AssertionError("full scan saw " + scanCheck.stableSeen + " of " + STABLE +
                            " stable keys, seed=" + readerSeed);
                    }
                }
                else
                {
                    final int fromId = random.nextInt(lastModSeen.length);
                    scanCheck.reset(fromId);
                    final int visited = index.scan(bound, 0, key(bound, fromId), null, 0, 0, 1 + random.nextInt(50),
                        scanCheck);
                    if (visited != scanCheck.visited)
                    {
                        throw new AssertionError("scan returned " + visited + " but visited " + scanCheck.visited);
                    }
                }
            }
        }
        catch (final Throwable t)
        {
            failure.compareAndSet(null, t);
        }
    }

    /** Checks each scanned entry and the strict ascending order, counting stable keys. */
    private static final class ScanCheck implements IndexVisitor
    {
        private final long[] lastModSeen;
        private final long readerSeed;
        private int previousId;
        private int stableSeen;
        private int visited;

        ScanCheck(final long[] lastModSeen, final long readerSeed)
        {
            this.lastModSeen = lastModSeen;
            this.readerSeed = readerSeed;
        }

        void reset(final int fromId)
        {
            previousId = fromId - 1;
            stableSeen = 0;
            visited = 0;
        }

        public boolean visit(final IndexEntry entry)
        {
            final int id = parseId(entry.key(), entry.keyLength());
            if (id <= previousId)
            {
                throw new AssertionError("scan not strictly ascending: " + id + " after " + previousId +
                    ", seed=" + readerSeed);
            }
            previousId = id;
            checkEntry(entry, id, lastModSeen, readerSeed);
            if ((id & 1) == 1)
            {
                stableSeen++;
            }
            visited++;
            return true;
        }
    }

    private static void checkEntry(final IndexEntry entry, final int id, final long[] lastModSeen, final long seed)
    {
        final DirectBuffer value = entry.value();
        final int length = entry.valueLength();
        final String where = " for key " + id + ", seed=" + seed;
        if (length < HEADER || value.getInt(0) != id)
        {
            throw new AssertionError("value of another key or torn" + where);
        }
        final long create = value.getLong(Integer.BYTES);
        final long mod = value.getLong(Integer.BYTES + Long.BYTES);
        final long version = value.getLong(Integer.BYTES + 2 * Long.BYTES);
        if (create != entry.createRevision() || mod != entry.modRevision() || version != entry.version())
        {
            throw new AssertionError("metadata " + entry.createRevision() + "/" + entry.modRevision() + "/" +
                entry.version() + " with value written as " + create + "/" + mod + "/" + version + where);
        }
        if (length != valueLength(id, mod))
        {
            throw new AssertionError("value length " + length + " does not match revision " + mod + where);
        }
        for (int i = HEADER; i < length; i++)
        {
            if (value.getByte(i) != filler(id, mod, i))
            {
                throw new AssertionError("torn value at byte " + i + where);
            }
        }
        if (mod < lastModSeen[id])
        {
            throw new AssertionError("went back in time: revision " + mod + " after " + lastModSeen[id] + where);
        }
        lastModSeen[id] = mod;
    }

    private static int churnedId(final int c)
    {
        return 2 * c;
    }

    private static int stableId(final int s)
    {
        // odd ids, spread between the churned ones
        return 2 * (s * (CHURNED / STABLE)) + 1;
    }

    /** Five decimal digits: byte order is id order. */
    private static int key(final MutableDirectBuffer key, final int id)
    {
        int rest = id;
        for (int i = 4; i >= 0; i--)
        {
            key.putByte(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return 5;
    }

    private static int parseId(final DirectBuffer key, final int length)
    {
        int id = 0;
        for (int i = 0; i < length; i++)
        {
            id = id * 10 + key.getByte(i) - '0';
        }
        return id;
    }

    private static int value(
        final MutableDirectBuffer value, final int id, final long create, final long mod, final long version)
    {
        final int length = valueLength(id, mod);
        value.putInt(0, id);
        value.putLong(Integer.BYTES, create);
        value.putLong(Integer.BYTES + Long.BYTES, mod);
        value.putLong(Integer.BYTES + 2 * Long.BYTES, version);
        for (int i = HEADER; i < length; i++)
        {
            value.putByte(i, filler(id, mod, i));
        }
        return length;
    }

    private static int valueLength(final int id, final long mod)
    {
        return HEADER + (int)((mod * 37 + id) % 700);
    }

    private static byte filler(final int id, final long mod, final int i)
    {
        return (byte)(id * 31 + mod * 17 + i);
    }
}
