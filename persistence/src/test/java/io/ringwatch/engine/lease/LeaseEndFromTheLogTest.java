package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A watcher that starts at an old revision after a restart catches up from the revision log, not the
 * window: across a lease's expiry it sees the deletes of all its keys in one revision, in key order,
 * each with its previous key-value carrying the lease, as a live watcher did.
 */
class LeaseEndFromTheLogTest
{
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @Test
    void aWatcherCatchingUpFromTheLogSeesAnExpiryAsOneRevisionWithTheLeaseInPrevKv(@TempDir final Path dir) throws Exception
    {
        final long expiredAt;
        try (RingWatch engine = open(dir))
        {
            engine.leases().grant(9, 10);
            engine.write(Op.put("c", "3").withLease(9));
            engine.write(Op.put("a", "1").withLease(9));
            engine.write(Op.put("b", "2"));
            clock.addAndGet(10_000);
            assertEquals(1, engine.leases().expireDue());
            expiredAt = engine.currentRevision();
            for (int i = 0; i < 100; i++)
            {
                engine.write(Op.put("b", "x" + i));
            }
        }
        try (RingWatch engine = open(dir))
        {
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.all()).startRevision(1).withPrevKv());
            final List<Event> events = LeasesTest.next(watcher, 3 + 2 + 100);
            final List<String> seen = new ArrayList<>();
            for (final Event event : events.subList(0, 5))
            {
                seen.add(event.revision() + " " + event.type() + " " + event.kv().keyAsString() + " lease " + event.kv().lease() +
                    (event.prevKv() == null ? "" : " prev lease " + event.prevKv().lease() + " " + event.prevKv().valueAsString()));
            }
            assertEquals(List.of(
                "1 PUT c lease 9",
                "2 PUT a lease 9",
                "3 PUT b lease 0",
                expiredAt + " DELETE a lease 0 prev lease 9 1",
                expiredAt + " DELETE c lease 0 prev lease 9 3"), seen);
            assertEquals(EventType.PUT, events.get(5).type());
        }
    }

    private RingWatch open(final Path dir)
    {
        return LeaseEngines.open(LogConfig.builder(dir).build(), clock);
    }
}
