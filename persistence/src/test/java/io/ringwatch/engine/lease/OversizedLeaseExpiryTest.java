package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.RevisionTooLargeException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A lease whose keys together exceed the revision log's per-revision cap cannot expire (its one
 * deleting revision is refused, a known limit), but it must not stop the leases due after it: the
 * writer takes the first due lease, so before the refused one was postponed by its TTL every later
 * lease stayed forever, and the timer retried the same refusal at every check.
 */
class OversizedLeaseExpiryTest
{
    private static final String VALUE = "v".repeat(300);

    private final AtomicLong clock = new AtomicLong(1_000_000);

    @Test
    void aLeaseTooLargeToEndDoesNotKeepTheLeasesDueAfterItFromExpiring(@TempDir final Path dir)
    {
        try (RingWatch engine = LeaseEngines.open(LogConfig.builder(dir).maxRevisionBytes(1024).build(), clock))
        {
            final Leases leases = engine.leases();
            leases.grant(1, 10);
            leases.grant(2, 20);
            for (int i = 0; i < 5; i++)
            {
                engine.write(Op.put("big" + i, VALUE).withLease(1));
            }
            engine.write(Op.put("small", "s").withLease(2));
            final long before = engine.currentRevision();
            clock.addAndGet(30_000);
            assertThrows(RevisionTooLargeException.class, leases::expireDue, "lease 1's deletes do not fit one revision");
            assertEquals(1, leases.expireDue(), "lease 2, due after it, still expires");
            assertEquals(before + 1, engine.currentRevision());
            assertArrayEquals(new long[] {1}, leases.leases());
            assertEquals(10_000, leases.timeToLive(1, false).remainingMillis(), "the refused lease is tried again a TTL later");
            assertEquals(0, leases.expireDue(), "and not at every check before that");
            assertEquals(List.of("big0", "big1", "big2", "big3", "big4"),
                engine.range(KeyRange.all(), 0).kvs().stream().map(KeyValue::keyAsString).toList());
        }
    }

    @Test
    void aKeepAliveOfALeaseTooLargeToEndPostponesItAndAnswersTheRenewal(@TempDir final Path dir)
    {
        try (RingWatch engine = LeaseEngines.open(LogConfig.builder(dir).maxRevisionBytes(1024).build(), clock))
        {
            final Leases leases = engine.leases();
            leases.grant(1, 10);
            for (int i = 0; i < 5; i++)
            {
                engine.write(Op.put("big" + i, VALUE).withLease(1));
            }
            final long before = engine.currentRevision();
            clock.addAndGet(10_000);
            assertEquals(10, leases.keepAlive(1), "it cannot end, so it is renewed: never refused with its keys left");
            assertEquals(before, engine.currentRevision());
            assertEquals(10_000, leases.timeToLive(1, false).remainingMillis());
            assertEquals(5, engine.count(KeyRange.all()));
        }
    }
}
