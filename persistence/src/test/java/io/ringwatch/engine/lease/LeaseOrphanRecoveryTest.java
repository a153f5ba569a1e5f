package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LeaseFile;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A key whose lease the lease log lost (its grant went with the page cache in an OS crash, the
 * put's revision did not): etcd's restore logs "failed to attach a lease" and leaves the key naming
 * a lease nobody knows, so it never expires. Here recovery restores that lease at the minimum TTL
 * with every key naming it, so no key names an unknown lease and the key still expires.
 */
class LeaseOrphanRecoveryTest
{
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @Test
    void aKeyWhoseGrantWasLostGetsItsLeaseBackAtTheMinimumTtlAndStillExpires(@TempDir final Path dir) throws Exception
    {
        try (RingWatch engine = open(dir))
        {
            engine.leases().grant(5, 60);
            engine.write(Op.put("b", "2").withLease(5));
            engine.write(Op.put("a", "1").withLease(5));
            engine.write(Op.put("c", "3"));
        }
        Files.delete(dir.resolve(LeaseFile.NAME));
        try (RingWatch engine = open(dir))
        {
            assertArrayEquals(new long[] {5}, engine.leases().leases());
            final LeaseTimeToLive ttl = engine.leases().timeToLive(5, true);
            assertEquals(2, ttl.grantedTtlSeconds(), "the minimum TTL");
            assertEquals(List.of("a", "b"), ttl.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList());
            clock.addAndGet(2_000);
            assertEquals(1, engine.leases().expireDue());
            assertEquals(List.of("c=3 lease 0"), LeaseEngines.state(engine));
        }
        try (RingWatch engine = open(dir))
        {
            assertArrayEquals(new long[0], engine.leases().leases());
            assertEquals(List.of("c=3 lease 0"), LeaseEngines.state(engine));
        }
    }

    private RingWatch open(final Path dir)
    {
        return LeaseEngines.open(LogConfig.builder(dir).build(), clock);
    }
}
