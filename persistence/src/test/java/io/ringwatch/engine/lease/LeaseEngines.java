package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.spi.Persistence;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the persistent lease tests share: an engine whose leases follow a hand-moved clock and end
 * only when the test calls {@link Leases#expireDue()}, and its state as text.
 */
final class LeaseEngines
{
    private LeaseEngines()
    {
    }

    /**
     * @param persistence the journal to open.
     * @param clock       the lease clock, in milliseconds; the test moves it.
     * @return the open engine, without a lease timer.
     */
    static RingWatch open(final Persistence persistence, final AtomicLong clock)
    {
        return RingWatch.open(RingWatchConfig.builder()
            .persistence(persistence)
            .leaseClock(clock::get)
            .leaseCheckInterval(Duration.ZERO)
            .build());
    }

    /**
     * @param engine the engine.
     * @return every key in key order as {@code key=value lease id}.
     */
    static List<String> state(final RingWatch engine)
    {
        return engine.range(KeyRange.all(), 0).kvs().stream().map(LeaseEngines::describe).toList();
    }

    private static String describe(final KeyValue kv)
    {
        return kv.keyAsString() + "=" + kv.valueAsString() + " lease " + kv.lease();
    }
}
