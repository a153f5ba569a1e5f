package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.JournalFailedException;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.persistence.LogConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Once the journal has failed, every command is refused until the engine is reopened, the lease
 * timer's expiry checks included: the timer stops (after one error line) instead of logging a
 * refusal at every check interval for as long as the engine stays open, which it did before.
 */
class LeaseTimerAfterJournalFailureTest
{
    private static final String NAME = "timer-after-failure";

    @Test
    void theLeaseTimerStopsOnceTheJournalHasFailed(@TempDir final Path dir) throws Exception
    {
        final AtomicBoolean armed = new AtomicBoolean();
        final LogConfig log = LogConfig.builder(dir).build();
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .name(NAME)
            .persistence(name -> FailingJournal.failing(log.openJournal(name), "appendRevision", armed))
            .leaseCheckInterval(Duration.ofMillis(5))
            .build()))
        {
            engine.leases().grant(1, 60);
            engine.write(Op.put("a", "1").withLease(1));
            final Thread timer = timer();
            assertTrue(timer.isAlive(), "the timer runs while the journal works");
            armed.set(true);
            assertThrows(JournalFailedException.class, () -> engine.write(Op.put("b", "2")));
            timer.join(Duration.ofSeconds(10).toMillis());
            assertFalse(timer.isAlive(), "the timer stopped after the journal failed");
            assertThrows(JournalFailedException.class, () -> engine.leases().keepAlive(1), "lease commands are refused too");
        }
    }

    private static Thread timer()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals(NAME + "-lease-timer"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no lease timer thread"));
    }
}
