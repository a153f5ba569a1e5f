package io.ringwatch.persistence;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lease expiries on a real full disk (an 8 MiB tmpfs, SYNC): leases whose keys hold large values
 * expire one after another while a filler file has taken every free page, until the journal fails.
 * A live watcher sees only the ends that are durable; after the disk frees and the engine reopens,
 * every end the watcher saw is there (none acknowledged and then lost), every other lease lives with
 * all its keys or is gone with all of them, no key names a lease that does not live, and a lease
 * that lived on still expires as one revision. Skipped where no tmpfs can be mounted (not root).
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeaseExpiryOnAFullTmpfsTest
{
    private static final int LEASES = 40;
    private static final int KEYS_PER_LEASE = 8;
    private static final int VALUE_BYTES = 8 * 1024;

    @RegisterExtension
    final SmallTmpfs tmpfs = new SmallTmpfs();
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @Test
    void expiriesThatFillTheDiskAreDurableBeforeAnyWatcherSeesThemAndWholeOrAbsentAfter() throws Exception
    {
        final String value = "v".repeat(VALUE_BYTES);
        final List<String> seenDeletes = new ArrayList<>();
        final Map<Long, Integer> seenPerRevision = new TreeMap<>();
        try (RingWatch engine = open())
        {
            for (int i = 0; i < LEASES; i++)
            {
                final long lease = engine.leases().grant(i + 1, 10).id();
                for (int k = 0; k < KEYS_PER_LEASE; k++)
                {
                    engine.write(Op.put(key(i, k), value).withLease(lease));
                }
            }
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("l/")).withPrevKv());
            fillTheDisk();
            clock.addAndGet(10_000);
            assertThrows(JournalFailedException.class, () -> engine.leases().expireDue(), "the disk filled up at some end");
            List<Event> batch;
            while (!(batch = watcher.next(Duration.ofMillis(500)).events()).isEmpty())
            {
                for (final Event event : batch)
                {
                    assertEquals(EventType.DELETE, event.type());
                    seenDeletes.add(event.kv().keyAsString());
                    seenPerRevision.merge(event.revision(), 1, Integer::sum);
                }
            }
        }
        assertTrue(seenPerRevision.values().stream().allMatch(n -> n == KEYS_PER_LEASE), "each end one revision: " + seenPerRevision);

        Files.delete(tmpfs.mount().resolve("filler"));
        assertTrue(Tmpfs.resize(tmpfs.mount(), 64), "remount with room");
        try (RingWatch engine = open())
        {
            final long[] live = engine.leases().leases();
            final Map<String, Long> state = new TreeMap<>();
            for (final KeyValue kv : engine.range(KeyRange.prefix("l/"), 0).kvs())
            {
                state.put(kv.keyAsString(), kv.lease());
            }
            for (int i = 0; i < LEASES; i++)
            {
                final long lease = i + 1;
                final boolean lives = Arrays.stream(live).anyMatch(id -> id == lease);
                for (int k = 0; k < KEYS_PER_LEASE; k++)
                {
                    final String key = key(i, k);
                    assertEquals(lives ? Long.valueOf(lease) : null, state.get(key),
                        "lease " + lease + (lives ? " lives with every key" : " is gone with every key"));
                    assertTrue(!seenDeletes.contains(key) || !lives, "an end a watcher saw was lost: " + key);
                }
            }
            assertTrue(live.length > 0 && live.length < LEASES,
                "some ends were durable, the one the disk refused and those after it were not: " + live.length + " live");
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("l/")));
            clock.addAndGet(10_000);
            assertEquals(live.length, engine.leases().expireDue(), "each lease that lived on still expires");
            assertEquals(0, engine.count(KeyRange.prefix("l/")));
            final Map<Long, Integer> perRevision = new TreeMap<>();
            int seen = 0;
            while (seen < live.length * KEYS_PER_LEASE)
            {
                for (final Event event : watcher.next(Duration.ofSeconds(1)).events())
                {
                    perRevision.merge(event.revision(), 1, Integer::sum);
                    seen++;
                }
            }
            assertEquals(live.length, perRevision.size());
        }
        System.out.printf("full tmpfs: %d of %d leases ended before the disk refused an end%n", seenPerRevision.size(), LEASES);
    }

    private RingWatch open()
    {
        return RingWatch.open(RingWatchConfig.builder()
            .name("full-tmpfs-leases")
            .persistence(LogConfig.builder(tmpfs.log()).blockSize(1 << 20).durability(LogConfig.Durability.SYNC).diskReserveBytes(0).build())
            .leaseClock(clock::get)
            .leaseCheckInterval(Duration.ZERO)
            .build());
    }

    /** Takes every free page of the tmpfs. */
    private void fillTheDisk() throws IOException
    {
        final byte[] chunk = new byte[4096];
        try (OutputStream filler = Files.newOutputStream(tmpfs.mount().resolve("filler")))
        {
            while (true)
            {
                filler.write(chunk);
                filler.flush();
            }
        }
        catch (final IOException full)
        {
            // No space left on device: what the test wants.
        }
    }

    private static String key(final int lease, final int key)
    {
        return String.format("l/%02d/%d", lease, key);
    }
}
